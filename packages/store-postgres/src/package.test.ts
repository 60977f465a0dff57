// @sf-m3/store-postgres packs like the other packages (contract §16): built JavaScript, declarations,
// README and LICENSE only; and it stays an optional install, not a dependency of sf-m3.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unshippableFiles } from '../../../e2e/install/packTarballs';

const repoRoot = join(__dirname, '..', '..', '..');

test('the tarball holds dist, README and LICENSE only, and pg is its one runtime dependency besides core', () => {
  const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '-w', 'packages/store-postgres'], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(pack.status).toBe(0);
  const [entry] = JSON.parse(pack.stdout) as { name: string; files: { path: string }[] }[];
  const files = entry!.files.map((file) => file.path);
  expect(entry!.name).toBe('@sf-m3/store-postgres');
  expect(files).toEqual(
    expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts']),
  );
  expect(unshippableFiles(files)).toEqual([]);
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'));
  expect(Object.keys(manifest.dependencies).sort()).toEqual(['@sf-m3/core', 'pg']);
  const root = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  expect(root.dependencies['@sf-m3/store-postgres']).toBeUndefined();
  expect(root.workspaces).toContain('packages/store-postgres');
});
