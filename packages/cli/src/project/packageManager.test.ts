import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectPackageManager, packageManagerOf } from './packageManager';

describe('detectPackageManager', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'm3-pm-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test('the packageManager field wins over a lockfile', () => {
    writeFileSync(join(root, 'package.json'), JSON.stringify({ packageManager: 'pnpm@12.24.0' }));
    writeFileSync(join(root, 'package-lock.json'), '{}');
    expect(detectPackageManager(root, {})).toMatchObject({ name: 'pnpm', source: 'packageManager field' });
  });

  test.each([
    ['pnpm-lock.yaml', 'pnpm'],
    ['yarn.lock', 'yarn'],
    ['package-lock.json', 'npm'],
  ])('%s means %s, also from a workspace folder below it', (lockfile, name) => {
    writeFileSync(join(root, lockfile), '');
    const member = join(root, 'packages', 'server');
    mkdirSync(member, { recursive: true });
    writeFileSync(join(member, 'package.json'), '{}');
    expect(detectPackageManager(member, {})).toMatchObject({ name, source: lockfile });
  });

  test('without a lockfile, the tool that ran m3, else npm', () => {
    // The temp folder's ancestors (/tmp, /) hold no lockfile.
    expect(detectPackageManager(root, { npm_config_user_agent: 'pnpm/12.24.0 npm/? node/v20.20.2' }).name).toBe('pnpm');
    expect(detectPackageManager(root, {})).toMatchObject({ name: 'npm', source: 'default' });
  });
});

describe('the commands of each package manager', () => {
  test('adding dev dependencies quotes ranges', () => {
    expect(packageManagerOf('pnpm', 'x').addDev('typescript@>=5.9 <7')).toBe('pnpm add -D "typescript@>=5.9 <7"');
    expect(packageManagerOf('yarn', 'x').addDev('sf-m3')).toBe('yarn add -D sf-m3');
    expect(packageManagerOf('npm', 'x').addDev('jest', 'ts-jest')).toBe('npm install --save-dev jest ts-jest');
  });

  test('a native module pnpm did not build is approved, then rebuilt', () => {
    expect(packageManagerOf('pnpm', 'x').allowBuild('sqlite3')).toBe('pnpm approve-builds sqlite3');
    expect(packageManagerOf('pnpm', 'x').exec('m3 init')).toBe('pnpm exec m3 init');
    expect(packageManagerOf('npm', 'x').exec('m3 init')).toBe('npx m3 init');
    expect(packageManagerOf('npm', 'x').rebuild('sqlite3')).toBe('npm rebuild sqlite3');
    expect(packageManagerOf('npm', 'x').allowBuild('sqlite3')).toBe(
      'npm approve-scripts sqlite3, then npm rebuild sqlite3',
    );
  });
});
