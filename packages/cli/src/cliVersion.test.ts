import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliVersion } from './cliVersion';

const repoRoot = join(__dirname, '..', '..', '..');

test("is @sf-m3/cli's version, which is sf-m3's (the root package pins it exactly)", () => {
  const root = require(join(repoRoot, 'package.json')) as { version: string; dependencies: Record<string, string> };
  expect(cliVersion()).toMatch(/^\d+\.\d+\.\d+/);
  expect(cliVersion()).toBe(root.version);
  expect(root.dependencies['@sf-m3/cli']).toBe(root.version);
});

test('a package.json that is not @sf-m3/cli is refused, naming the file and the fix', () => {
  const folder = mkdtempSync(join(tmpdir(), 'm3-version-'));
  try {
    mkdirSync(join(folder, 'dist'));
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'other', version: '9.9.9' }));
    expect(() => cliVersion(join(folder, 'dist'))).toThrow(
      `${join(folder, 'package.json')} is not @sf-m3/cli's package.json: reinstall sf-m3`,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
