// Every relative link in the Markdown the tarballs ship resolves in node_modules: checked against
// `npm pack --dry-run` file lists (no build, no install), so a README pointing at repository-only
// content fails here in seconds rather than in the install test.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../cli.testkit';
import { packedFileLists } from './packTarballs';
import {
  brokenInstalledLinks,
  brokenShippedLinks,
  existsInPackedFiles,
  headingAnchors,
  relativeLinks,
  resolveInNodeModules,
} from './shippedLinks';
import { userEnv } from './userProject';

test('relative links and images are found, inline, multi-line, reference-style and HTML; others are not', () => {
  const text = [
    '[guide](docs/a.md#part) and ![shot](images/x.png) and [web](https://example.com/x) and [top](#top)',
    '[two\nlines](../core/README.md) [ref][r] <a href="docs/b.md">b</a> <img src="i.png"> [mail](mailto:a@b.c)',
    '',
    '[r]: docs/c.md',
    '',
    '```md',
    '[in code](not/a/link.md)',
    '```',
  ].join('\n');
  expect(relativeLinks(text)).toEqual([
    'docs/a.md#part',
    'images/x.png',
    '../core/README.md',
    'docs/c.md',
    'docs/b.md',
    'i.png',
  ]);
});

test('heading anchors follow GitHub: lower case, punctuation and backticks dropped, spaces to -, repeats numbered', () => {
  const text = [
    '## CI reports: `m3 report --format junit|markdown`, `m3 report --flaky`',
    '## Options (`kit.direct(server, options)`)',
    '### Codex code mode',
    '## Setup',
    '## Setup',
    '<a id="custom"></a>',
  ].join('\n\n');
  expect([...headingAnchors(text)]).toEqual([
    'ci-reports-m3-report---format-junitmarkdown-m3-report---flaky',
    'options-kitdirectserver-options',
    'codex-code-mode',
    'setup',
    'setup-1',
    'custom',
  ]);
});

test('a link resolves from its file inside the package, and across packages through node_modules', () => {
  expect(resolveInNodeModules('@sf-m3/cli', 'README.md', '../core/README.md#x')).toBe('@sf-m3/core/README.md');
  expect(resolveInNodeModules('sf-m3', 'README.md', '../@sf-m3/core/docs/')).toBe('@sf-m3/core/docs');
  expect(resolveInNodeModules('@sf-m3/core', 'docs/a.md', 'b%20c.md')).toBe('@sf-m3/core/docs/b c.md');
  expect(resolveInNodeModules('sf-m3', 'README.md', 'packages/cli/README.md')).toBe('sf-m3/packages/cli/README.md');
  expect(resolveInNodeModules('@sf-m3/cli', 'README.md', '../../../docs/x.md')).toBe('../docs/x.md');
});

test('a link to a file or folder not shipped is broken; one shipped by a sibling package is not', () => {
  const packages = [
    { name: 'sf-m3', files: ['README.md'] },
    { name: '@sf-m3/core', files: ['README.md', 'docs/guide.md'] },
  ];
  const texts: Record<string, string> = {
    'sf-m3/README.md': '[a](../@sf-m3/core/docs/guide.md) [b](../@sf-m3/core/docs) [c](docs/regressions.md)',
    '@sf-m3/core/README.md': '# Top\n\n[d](docs/guide.md) [e](../../../outside.md) [f](../cli/README.md)',
    '@sf-m3/core/docs/guide.md':
      '## Part two\n\n[g](../README.md#top) [h](#part-two) [i](#part-three) [j](../README.md#bottom)',
  };
  const broken = brokenShippedLinks(packages, (name, file) => texts[`${name}/${file}`]!, existsInPackedFiles(packages));
  expect(broken).toEqual([
    { in: 'sf-m3/README.md', href: 'docs/regressions.md', resolved: 'sf-m3/docs/regressions.md' },
    { in: '@sf-m3/core/README.md', href: '../../../outside.md', resolved: '../outside.md' },
    { in: '@sf-m3/core/README.md', href: '../cli/README.md', resolved: '@sf-m3/cli/README.md' },
    { in: '@sf-m3/core/docs/guide.md', href: '#part-three', resolved: '@sf-m3/core/docs/guide.md' },
    { in: '@sf-m3/core/docs/guide.md', href: '../README.md#bottom', resolved: '@sf-m3/core/README.md' },
  ]);
});

test('every relative link in every Markdown file a tarball ships names a file the tarballs ship', () => {
  const packages = packedFileLists(repoRoot, userEnv());
  expect(packages.map((entry) => entry.name).sort()).toEqual([
    '@sf-m3/cli',
    '@sf-m3/core',
    '@sf-m3/jest-environment',
    '@sf-m3/matchers',
    '@sf-m3/store-postgres',
    '@sf-m3/store-sqlite',
    'sf-m3',
  ]);
  const folders = new Map(packages.map((entry) => [entry.name, entry.folder]));
  const read = (name: string, file: string): string => readFileSync(join(folders.get(name)!, file), 'utf8');
  const shippedMarkdown = packages.flatMap((entry) => entry.files.filter((file) => file.endsWith('.md')));
  expect(shippedMarkdown.length).toBeGreaterThan(packages.length); // the guides ship, not only READMEs
  expect(brokenShippedLinks(packages, read, existsInPackedFiles(packages))).toEqual([]);
});

test('installed links are read and checked on disk; an optional package not installed yet is checked against its tarball', () => {
  const nodeModules = mkdtempSync(join(tmpdir(), 'm3-links-'));
  try {
    mkdirSync(join(nodeModules, 'sf-m3'), { recursive: true });
    mkdirSync(join(nodeModules, '@sf-m3', 'cli', 'docs'), { recursive: true });
    writeFileSync(join(nodeModules, '@sf-m3', 'cli', 'docs', 'regressions.md'), '# r\n');
    const readme =
      '[r](../@sf-m3/cli/docs/regressions.md) [p](../@sf-m3/store-postgres/README.md) [x](../@sf-m3/cli/x.md)';
    writeFileSync(join(nodeModules, 'sf-m3', 'README.md'), readme);
    const root = [{ name: 'sf-m3', files: ['README.md'] }];
    const postgres = [{ name: '@sf-m3/store-postgres', files: ['README.md'] }];
    expect(brokenInstalledLinks(nodeModules, root, postgres).map((link) => link.href)).toEqual(['../@sf-m3/cli/x.md']);
    expect(brokenInstalledLinks(nodeModules, root).map((link) => link.href)).toEqual([
      '../@sf-m3/store-postgres/README.md',
      '../@sf-m3/cli/x.md',
    ]);
  } finally {
    rmSync(nodeModules, { recursive: true, force: true });
  }
});
