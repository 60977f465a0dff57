import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { doctorResultsDb, formatDoctor } from './doctor';
import { checkNode, checkPeer, checkSqlite, checkTsconfigTypes, findSfM3 } from './doctorChecks';
import { packageManagerOf } from '../project/packageManager';
import { findExecutable } from './doctorHarnesses';

const sfM3 = (engines: Record<string, string>) => ({ name: 'sf-m3', dir: '/x', version: '0.1.0', json: { engines } });

describe('m3 doctor checks', () => {
  test('node against engines', () => {
    expect(checkNode(sfM3({ node: '>=20.19' }), 'v20.20.2')).toEqual({
      name: 'node',
      status: 'ok',
      detail: 'v20.20.2 (sf-m3 needs >=20.19)',
    });
    expect(checkNode(sfM3({ node: '>=20.19' }), 'v18.20.0')).toMatchObject({
      status: 'fail',
      fix: 'install a Node that satisfies >=20.19 (e.g. with nvm)',
    });
  });

  test('tsconfig types follow extends, and a missing sf-m3/globals fails with the fix', () => {
    const folder = mkdtempSync(join(tmpdir(), 'm3-doctor-'));
    try {
      writeFileSync(join(folder, 'base.json'), '{ "compilerOptions": { "types": ["jest", "sf-m3/globals"] } }');
      writeFileSync(join(folder, 'tsconfig.json'), '{ "extends": "./base.json" /* shared */ }');
      expect(checkTsconfigTypes(folder)).toEqual({
        name: 'tsconfig types',
        status: 'ok',
        detail: '["jest","sf-m3/globals"]',
      });
      writeFileSync(join(folder, 'tsconfig.json'), '{ "compilerOptions": { "strict": true } }');
      expect(checkTsconfigTypes(folder)).toMatchObject({ status: 'fail', detail: 'compilerOptions.types is not set' });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('the results database: --results-db, then M3_RESULTS_DB, then the default', () => {
    const io = { cwd: '/p', env: { M3_RESULTS_DB: 'r/e.sqlite' }, stdout: () => {}, stderr: () => {} };
    expect(doctorResultsDb({ resultsDb: 'x.sqlite' }, io)).toEqual({ path: '/p/x.sqlite', source: '--results-db' });
    expect(doctorResultsDb({}, io)).toEqual({ path: '/p/r/e.sqlite', source: 'M3_RESULTS_DB' });
    expect(doctorResultsDb({}, { ...io, env: {} })).toEqual({ path: '/p/.m3/executions.sqlite', source: 'default' });
  });

  test('executables: on PATH, or relative to the project', () => {
    expect(findExecutable('node', '/', process.env.PATH)).toMatch(/node$/);
    expect(findExecutable('no-such-cli-m3', '/', process.env.PATH)).toBeNull();
    expect(findExecutable(process.execPath, '/', '')).toBe(process.execPath);
  });

  test('one line per check with the fix, and the count', () => {
    expect(
      formatDoctor([
        { name: 'node', status: 'ok', detail: 'v20' },
        { name: 'results db', status: 'fail', detail: 'x is not writable', fix: 'chmod u+w x' },
      ]),
    ).toBe(
      'ok    node        v20\nfail  results db  x is not writable — fix: chmod u+w x\ndoctor: 1 ok, 0 warn, 1 fail\n',
    );
  });
});

describe('peer checks', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'm3-peers-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  function install(name: string, json: Record<string, unknown>): void {
    mkdirSync(join(folder, 'node_modules', name), { recursive: true });
    writeFileSync(join(folder, 'node_modules', name, 'package.json'), JSON.stringify({ name, ...json }));
  }

  test('the installed version against every declared range; a missing optional peer warns, a required one fails', () => {
    install('sf-m3', {
      version: '0.1.0',
      peerDependencies: { jest: '^30.0.0', 'ts-jest': '^29.4.0' },
      peerDependenciesMeta: { 'ts-jest': { optional: true } },
    });
    install('jest', { version: '29.7.0' });
    const sf = findSfM3(folder);
    expect(checkPeer('jest', sf, folder)).toEqual({
      name: 'jest',
      status: 'fail',
      detail: '29.7.0, but sf-m3 0.1.0 wants ^30.0.0',
      fix: 'npm install --save-dev "jest@^30.0.0"',
    });
    expect(checkPeer('ts-jest', sf, folder)).toMatchObject({ status: 'warn' });
    expect(checkPeer('typescript', sf, folder)).toMatchObject({
      status: 'fail',
      fix: 'npm install --save-dev typescript',
    });
    install('jest', { version: '30.1.0' });
    expect(checkPeer('jest', sf, folder)).toEqual({
      name: 'jest',
      status: 'ok',
      detail: '30.1.0 (sf-m3 0.1.0 wants ^30.0.0)',
    });
  });
});

describe('m3 doctor fixes in the project package manager', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'm3-doctor-pm-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  const install = (name: string, json: Record<string, unknown>) => {
    const dir = join(folder, 'node_modules', name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, ...json }));
    return dir;
  };

  test('pnpm picked TypeScript 7, which ts-jest refuses: the fix is pnpm add -D with the range', () => {
    install('typescript', { version: '7.0.2' });
    install('ts-jest', { version: '29.4.5', peerDependencies: { typescript: '>=4.3 <7' } });
    const fix = checkPeer('typescript', null, folder, packageManagerOf('pnpm', 'pnpm-lock.yaml'));
    expect(fix).toMatchObject({ status: 'fail', fix: 'pnpm add -D "typescript@>=4.3 <7"' });
  });

  test('sqlite3 whose install script never ran (pnpm blocks build scripts) asks for approve-builds', () => {
    const dir = install('sqlite3', { version: '5.1.7', main: 'lib/sqlite3.js' });
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib', 'sqlite3.js'), "throw new Error('Could not locate the bindings file.');");
    expect(checkSqlite(null, folder, packageManagerOf('pnpm', 'pnpm-lock.yaml'))).toEqual({
      name: 'sqlite3',
      status: 'fail',
      detail: '5.1.7 was never built: its install script did not run (pnpm did not allow it)',
      fix: 'pnpm approve-builds sqlite3 (building from source needs python3, make and a C++ compiler)',
    });
    mkdirSync(join(dir, 'build'));
    expect(checkSqlite(null, folder, packageManagerOf('npm', 'package-lock.json'))).toMatchObject({
      detail: '5.1.7 does not load: Could not locate the bindings file.',
      fix: expect.stringMatching(/^npm rebuild sqlite3 \(building from source/),
    });
  });
});
