// End-to-end: `npx m3 doctor` on a healthy project (every check ok, exit 0) and on one missing the
// tsconfig types, with an unwritable results folder and a harness CLI that is not installed (fail
// lines with their fixes, exit 1). Doctor must not create or change anything in the project.
import { chmodSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ensureBuilt, removeFixture } from './cli.testkit';
import { installedFixture, installedM3, projectFiles } from './init.testkit';

jest.setTimeout(120_000);

// Root may write anywhere, so the permission checks run without CAP_DAC_OVERRIDE (see installedM3).
// A PATH with node and the system folders, but none of the agent CLIs a developer may have installed.
const PATH = [dirname(process.execPath), '/usr/bin', '/bin'].join(':');

const folders: string[] = [];
beforeAll(() => ensureBuilt());
afterAll(() => {
  for (const folder of folders) {
    chmodSync(join(folder, '.m3'), 0o755);
    removeFixture(folder);
  }
});

function lines(stdout: string): string[] {
  return stdout.trimEnd().split('\n');
}

describe('m3 doctor', () => {
  test('a healthy project: every check is ok, exit 0, and nothing is written', () => {
    const folder = installedFixture('init-doctor-healthy');
    folders.push(folder);
    mkdirSync(join(folder, '.m3'));
    const before = projectFiles(folder);
    const run = installedM3(folder, ['doctor'], { env: { PATH } });
    expect(run.stderr).toBe('');
    const printed = lines(run.stdout);
    const checks = printed.slice(0, -1);
    expect(checks.map((l) => l.split(/\s{2,}/)[1])).toEqual([
      'node',
      'sf-m3',
      'jest',
      'ts-jest',
      'typescript',
      'jest config',
      'preset',
      'sqlite3',
      'tsconfig types',
      'test imports',
      'results db',
      'harness acp',
    ]);
    for (const line of checks) expect(line).toMatch(/^ok {4}/);
    expect(run.stdout).toMatch(/^ok {4}jest {12}30\.\d+\.\d+ \(.*wants .*\^30/m);
    expect(run.stdout).toContain('ok    tsconfig types  ["jest","sf-m3/globals"]\n');
    expect(run.stdout).toContain('ok    test imports    1 relative import(s) in 1 test file(s) resolve\n');
    expect(run.stdout).toContain(
      'ok    results db      .m3/executions.sqlite (default) can be created by the first m3 test\n',
    );
    expect(run.stdout).toContain(
      `ok    harness acp     named in tests/agent.m3.test.ts; node found at ${join(dirname(process.execPath), 'node')}\n`,
    );
    expect(printed.at(-1)).toBe('doctor: 12 ok, 0 warn, 0 fail');
    expect(run.status).toBe(0);
    expect(projectFiles(folder)).toEqual(before);

    const json = installedM3(folder, ['doctor', '--json'], { env: { PATH } });
    const report = JSON.parse(json.stdout);
    expect(report.schemaVersion).toBe(1);
    expect(report.status).toBe('ok');
    expect(report.checks.map((c: { status: string }) => c.status)).toEqual(Array(12).fill('ok'));
    expect(json.status).toBe(0);
  });

  test('missing tsconfig types, an unwritable results folder and a missing harness CLI: fail lines with fixes, exit 1', () => {
    const folder = installedFixture('init-doctor-broken');
    folders.push(folder);
    mkdirSync(join(folder, '.m3'));
    chmodSync(join(folder, '.m3'), 0o555);
    const before = projectFiles(folder);
    const run = installedM3(folder, ['doctor'], { env: { PATH }, unprivileged: true });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(
      'fail  tsconfig types  compilerOptions.types is ["jest"] — fix: add "sf-m3/globals" to compilerOptions.types in tsconfig.json (npx m3 init does)\n',
    );
    expect(run.stdout).toContain(
      `fail  results db      .m3/executions.sqlite (default): the folder ${join(folder, '.m3')} is not writable — fix: make it writable (chmod u+w ${join(folder, '.m3')}) or pass another path with --results-db / M3_RESULTS_DB\n`,
    );
    expect(run.stdout).toContain(
      'fail  harness codex   named in tests/agent.m3.test.ts; codex was not found on PATH — fix: npm install -g @openai/codex (or give the selection an executable path)\n',
    );
    expect(run.stdout).toContain(
      "warn  test imports    1 of 1 relative import(s) in 1 test file(s) name no file: './helpers/zones.js' at tests/agent.m3.test.ts:3 — fix: correct the path",
    );
    expect(run.stdout).toMatch(/^ok {4}preset /m);
    expect(run.stdout).toMatch(/^ok {4}sqlite3 /m);
    expect(lines(run.stdout).at(-1)).toBe('doctor: 8 ok, 1 warn, 3 fail');
    expect(run.status).toBe(1);
    expect(projectFiles(folder)).toEqual(before);

    // The same folder through M3_RESULTS_DB, and a writable --results-db elsewhere passes that check.
    const viaEnv = installedM3(folder, ['doctor'], {
      env: { PATH, M3_RESULTS_DB: '.m3/other.sqlite' },
      unprivileged: true,
    });
    expect(viaEnv.stdout).toContain('fail  results db      .m3/other.sqlite (M3_RESULTS_DB): the folder');
    const elsewhere = installedM3(folder, ['doctor', '--results-db', '/tmp/m3-doctor-elsewhere/x.sqlite'], {
      env: { PATH },
      unprivileged: true,
    });
    expect(elsewhere.stdout).toContain(
      'ok    results db      /tmp/m3-doctor-elsewhere/x.sqlite (--results-db) can be created',
    );
    expect(elsewhere.status).toBe(1);
  });
});
