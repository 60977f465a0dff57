// `npm pack` of every published package (the root `sf-m3` and the six @sf-m3 workspaces), the
// tarballs an install test installs instead of anything from this repository; and the rule for
// what a tarball may hold (SPEC §16: built JavaScript, declarations, README and licence only).
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
  const workspaces = PUBLISHED_WORKSPACES.flatMap((folder) => ['-w', folder]);
  const result = spawnSync(
    'npm',
    ['pack', '--json', '--pack-destination', destination, '--include-workspace-root', ...workspaces],
    { cwd: repoRoot, env, encoding: 'utf8', timeout: 180_000 },
  );
  if (result.status !== 0) throw new Error(`npm pack failed (${result.status}):\n${result.stdout}${result.stderr}`);
  const packed = JSON.parse(result.stdout) as {
    name: string;
    version: string;
    filename: string;
    files: { path: string }[];
  }[];
  return packed.map((entry) => ({
    name: entry.name,
    version: entry.version,
    tarball: join(destination, entry.filename),
    files: entry.files.map((file) => file.path),
  }));
}

const SHIPPABLE = [
  /^package\.json$/,
  /^README\.md$/,
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

/** The files of a tarball that SPEC §16 says it must not ship, with the reason. */
export function unshippableFiles(files: readonly string[]): string[] {
  const wrong: string[] = [];
  for (const file of files) {
    if (NEVER.some((pattern) => pattern.test(file))) wrong.push(`${file} (test, source, map, fixture or config)`);
    else if (!SHIPPABLE.some((pattern) => pattern.test(file)))
      wrong.push(`${file} (not JS, a declaration, README or LICENSE)`);
  }
  return wrong;
}

/** The JavaScript files of `entry`, installed in `folder`, that name a source map (none should). */
export function sourceMappedFiles(folder: string, entry: PackedPackage): string[] {
  return entry.files.filter(
    (file) => /\.c?js$/.test(file) && readFileSync(join(folder, file), 'utf8').includes('sourceMappingURL='),
  );
}
