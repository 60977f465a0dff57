// The links of the Markdown a package ships (READMEs and guides): every relative link and image must
// name a file that is there once the tarballs are installed side by side in node_modules. Checked
// against `npm pack --dry-run` file lists (shippedLinks.test.ts, seconds) and against a real install
// (install.test.ts).
import MarkdownIt from 'markdown-it';
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

const markdown = new MarkdownIt({ html: true });

/** One package as it lands in node_modules: its name (its folder there) and the files it ships. */
export interface ShippedPackage {
  readonly name: string;
  readonly files: readonly string[];
}

/** A link in shipped Markdown that names nothing in node_modules. */
export interface BrokenLink {
  /** `<package>/<file>` holding the link. */
  readonly in: string;
  readonly href: string;
  /** Where it points, relative to node_modules (`..` when it leaves node_modules). */
  readonly resolved: string;
}

/** The relative link and image targets of a Markdown text, in order (no `#anchor`-only or scheme links). */
export function relativeLinks(text: string): string[] {
  return localLinks(text).filter((target) => !target.startsWith('#'));
}

/** Relative link and image targets and `#anchor` links of a Markdown text, in order (no scheme links). */
export function localLinks(text: string): string[] {
  const targets: string[] = [];
  const visit = (tokens: ReturnType<typeof markdown.parse>): void => {
    for (const token of tokens) {
      const target =
        token.type === 'link_open' ? token.attrGet('href') : token.type === 'image' ? token.attrGet('src') : null;
      if (target !== null && isRelative(target)) targets.push(target);
      if (token.children !== null) visit(token.children);
    }
  };
  visit(markdown.parse(text, {}));
  for (const match of text.matchAll(/<(?:a|img)\s[^>]*?(?:href|src)="([^"]+)"/g)) {
    if (isRelative(match[1]!)) targets.push(match[1]!);
  }
  return targets;
}

/** True for a link inside the document set: not `//host`, `mailto:`, `https:` or any other scheme. */
function isRelative(target: string): boolean {
  return target !== '' && target !== '#' && !target.startsWith('//') && !/^[a-z][a-z0-9+.-]*:/i.test(target);
}

/**
 * The anchors GitHub (and npm) give a Markdown file's headings: the heading's text, lower-cased,
 * with every character but letters, marks, digits, `_`, `-` and spaces removed and spaces made `-`;
 * a repeated slug gets `-1`, `-2`, … (github-slugger's rule); plus `<a id="…">` / `<a name="…">`.
 */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const tokens = markdown.parse(text, {});
  tokens.forEach((token, index) => {
    if (token.type !== 'heading_open') return;
    const inline = tokens[index + 1]?.children ?? [];
    const title = inline
      .map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : ''))
      .join('');
    const base = title
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  });
  for (const match of text.matchAll(/<a\s[^>]*?(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}

/** Where `href`, written in `<package>/<file>`, points, relative to node_modules. */
export function resolveInNodeModules(packageName: string, file: string, href: string): string {
  const path = decodeURIComponent(href.replace(/[?#].*$/, ''));
  return posix.normalize(posix.join(packageName, posix.dirname(file), path)).replace(/\/$/, '');
}

/**
 * The links in every shipped `.md` of `packages` that resolve to nothing: `read` gives a shipped
 * file's text, `exists` says whether a path relative to node_modules is there (file or folder).
 */
export function brokenShippedLinks(
  packages: readonly ShippedPackage[],
  read: (packageName: string, file: string) => string,
  exists: (nodeModulesPath: string) => boolean,
): BrokenLink[] {
  const broken: BrokenLink[] = [];
  for (const entry of packages) {
    for (const file of entry.files.filter((name) => name.toLowerCase().endsWith('.md'))) {
      for (const href of localLinks(read(entry.name, file))) {
        const resolved = href.startsWith('#') ? `${entry.name}/${file}` : resolveInNodeModules(entry.name, file, href);
        const missing = resolved.startsWith('..') || !exists(resolved);
        if (missing || !anchorResolves(packages, read, resolved, href)) {
          broken.push({ in: `${entry.name}/${file}`, href, resolved });
        }
      }
    }
  }
  return broken;
}

/** True unless `href` names a `#fragment` of a shipped Markdown file that has no such heading. */
function anchorResolves(
  packages: readonly ShippedPackage[],
  read: (packageName: string, file: string) => string,
  resolved: string,
  href: string,
): boolean {
  const hash = href.indexOf('#');
  if (hash === -1 || !resolved.toLowerCase().endsWith('.md')) return true;
  const fragment = decodeURIComponent(href.slice(hash + 1));
  const owner = packages.find((entry) => resolved.startsWith(`${entry.name}/`));
  const file = owner === undefined ? undefined : resolved.slice(owner.name.length + 1);
  if (owner === undefined || file === undefined || !owner.files.includes(file)) return true; // not ours to read
  return headingAnchors(read(owner.name, file)).has(fragment);
}

/** An `exists` for `brokenShippedLinks` over packed file lists: a shipped file, or a folder holding one. */
export function existsInPackedFiles(packages: readonly ShippedPackage[]): (nodeModulesPath: string) => boolean {
  const paths = new Set<string>();
  for (const entry of packages) {
    for (const file of entry.files) {
      let path = `${entry.name}/${file}`;
      while (path !== '.' && path !== '' && !paths.has(path)) {
        paths.add(path);
        path = posix.dirname(path);
      }
    }
  }
  return (nodeModulesPath) => paths.has(nodeModulesPath);
}

/**
 * The broken links of `packages` as installed in `nodeModules` (read from disk); a link into a
 * package not installed there counts as resolved when that package's tarball ships its target
 * (`optional`: @sf-m3/store-postgres before its own install command has run).
 */
export function brokenInstalledLinks(
  nodeModules: string,
  packages: readonly ShippedPackage[],
  optional: readonly ShippedPackage[] = [],
): BrokenLink[] {
  const inOptional = existsInPackedFiles(optional);
  const optionalNames = optional.map((entry) => `${entry.name}/`);
  return brokenShippedLinks(
    packages,
    (name, file) => readFileSync(join(nodeModules, name, file), 'utf8'),
    (path) =>
      existsSync(join(nodeModules, path)) ||
      (optionalNames.some((prefix) => path.startsWith(prefix)) &&
        !existsSync(join(nodeModules, path.split('/').slice(0, 2).join('/'))) &&
        inOptional(path)),
  );
}
