// `npm pack` of every published package (the root `sf-m3` and the six @sf-m3 workspaces), the
// tarballs an install test installs instead of anything from this repository; and the rule for
// what a tarball may hold (contract §16: built JavaScript, declarations, README and licence, plus the
// guides in docs/ the READMEs link, so every shipped link resolves in node_modules).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Workspace folders of the published @sf-m3 packages (examples/servers is private). */
export const PUBLISHED_WORKSPACES = [
  'packages/core',
  'packages/store-sqlite',
  'packages/store-postgres',
  'packages/matchers',
  'packages/jest-environment',
  'packages/cli',
] as const;

/** One packed tarball. */
export interface PackedPackage {
  readonly name: string;
  readonly version: string;
  /** Absolute path of the `.tgz`. */
  readonly tarball: string;
  /** Paths inside the package (`dist/index.js`, `package.json`, …). */
  readonly files: readonly string[];
}

/** Packs the root package and every published workspace into `destination`. */
export function packAll(repoRoot: string, destination: string, env: NodeJS.ProcessEnv): PackedPackage[] {
  return npmPack(repoRoot, ['--pack-destination', destination], env).map((entry) => ({
    name: entry.name,
    version: entry.version,
    tarball: join(destination, entry.filename),
    files: entry.files.map((file) => file.path),
  }));
}

/** What `npm pack --dry-run` would pack for the root package and every published workspace, in seconds. */
export function packedFileLists(repoRoot: string, env: NodeJS.ProcessEnv): PackedFileList[] {
  return npmPack(repoRoot, ['--dry-run'], env).map((entry) => ({
    name: entry.name,
    folder: entry.name === 'sf-m3' ? repoRoot : join(repoRoot, 'packages', entry.name.replace(/^@sf-m3\//, '')),
    files: entry.files.map((file) => file.path),
  }));
}

/** The file list of one package `npm pack` would publish, and the folder it packs. */
export interface PackedFileList {
  readonly name: string;
  /** Absolute path of the folder packed (the repository root for `sf-m3`). */
  readonly folder: string;
  readonly files: readonly string[];
}

/** `npm pack --json <extra>` of the root package and every published workspace, parsed. */
function npmPack(
  repoRoot: string,
  extra: readonly string[],
  env: NodeJS.ProcessEnv,
): { name: string; version: string; filename: string; files: { path: string }[] }[] {
  const workspaces = PUBLISHED_WORKSPACES.flatMap((folder) => ['-w', folder]);
  const result = spawnSync('npm', ['pack', '--json', ...extra, '--include-workspace-root', ...workspaces], {
    cwd: repoRoot,
    env,
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (result.status !== 0) throw new Error(`npm pack failed (${result.status}):\n${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout);
}

const SHIPPABLE = [
  /^package\.json$/,
  /^README\.md$/,
  /^packages\/[\w-]+\/README\.md$/, // sf-m3's copy of the package READMEs its README links
  /^(packages\/(core|cli)\/)?docs\/[\w-]+\.md$/, // the guides the READMEs link (contract §16 deviation: docs ship with their package)
  /^(packages\/cli\/)?docs\/images\/[\w-]+\.png$/, // the screenshots those guides show
  /^LICENSE$/,
  /\.d\.ts$/,
  /\.c?js$/, // built JavaScript, the capture proxy (plain JS) and the bundled ACP SDK
  /^dist\/ui\/client\/viewer\.css$/, // the viewer's bundled stylesheet (m3 ui, m3 report --html)
];
const NEVER = [
  /\.map$/,
  /\.test\.|\.testkit\.|__fixtures__|(^|\/)(e2e|bench|fixtures|examples|scripts|src)\//,
  /(^|\/)\.(env|ci)|\.tsbuildinfo$|(^|\/)(eslint\.config\.[cm]?js|\.prettierrc[^/]*|tsconfig[^/]*\.json)$/,
];

/** The files of a tarball that contract §16 says it must not ship, with the reason. */
export function unshippableFiles(files: readonly string[]): string[] {
  const wrong: string[] = [];
  for (const file of files) {
    if (NEVER.some((pattern) => pattern.test(file))) wrong.push(`${file} (test, source, map, fixture or config)`);
    else if (!SHIPPABLE.some((pattern) => pattern.test(file)))
      wrong.push(`${file} (not JS, a declaration, README, docs/ guide or LICENSE)`);
  }
  return wrong;
}

/** The JavaScript files of `entry`, installed in `folder`, that name a source map (none should). */
export function sourceMappedFiles(folder: string, entry: PackedPackage): string[] {
  return entry.files.filter(
    (file) => /\.c?js$/.test(file) && readFileSync(join(folder, file), 'utf8').includes('sourceMappingURL='),
  );
}
