// Bad results databases, through the real `m3` bin: a read-only file or folder, another program's
// SQLite file, random bytes, a newer schema and a path under a regular file each end in a named
// error with the fix and exit status 2, in bounded time, leaving the file exactly as it was; and
// `m3 runs`/`m3 report` read a database nobody may write. Permissions bind only an unprivileged
// process, so those commands run through unprivileged() (as root: without CAP_DAC_OVERRIDE).
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import * as sqlite3 from 'sqlite3';
import { canRunUnprivileged, unprivileged } from '../../packages/store-sqlite/src/unprivileged.testkit';
import {
  childEnv,
  copyFixture,
  ensureBuilt,
  m3Bin,
  printedRunId,
  removeFixture,
  runM3,
  type M3Run,
} from '../cli.testkit';

jest.setTimeout(240_000);

/** Generous bound for one refused `m3` command on a loaded machine; a hang fails the test. */
const BOUND_MS = 90_000;

function runM3Unprivileged(args: string[], cwd: string): M3Run & { signal: NodeJS.Signals | null } {
  const { command, args: argv } = unprivileged(process.execPath, [m3Bin, ...args]);
  const result = spawnSync(command, argv, { cwd, env: childEnv({}), encoding: 'utf8', timeout: BOUND_MS });
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr, combined: '' };
}

function rawExec(path: string, sql: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, (openError) => {
      if (openError) return reject(openError);
      db.exec(sql, (error) => db.close(() => (error ? reject(error) : resolve())));
    });
  });
}

/** Expects a refusal: exit 2 in bounded time, the message on stderr, Jest never started. */
function expectRefused(run: M3Run & { signal?: NodeJS.Signals | null }, message: string | RegExp): void {
  expect(run.signal ?? null).toBeNull();
  const named = typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message);
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 2, stderr: named });
  expect(run.stderr).not.toMatch(/SQLITE_READONLY|EEXIST|ENOTDIR|preset 'sf-m3'/);
  expect(`${run.stdout}${run.stderr}`).not.toContain('Tests:');
}

/** The files beside `path` and its bytes, to see that nothing changed and no -wal/-shm appeared. */
const snapshot = (path: string) => ({
  bytes: readFileSync(path).toString('base64'),
  files: readdirSync(join(path, '..')),
});

const itWithPermissions = canRunUnprivileged() ? test : test.skip;

describe('m3 on bad results databases', () => {
  let folder: string;
  let runId: string;
  let db: string;

  beforeAll(() => {
    ensureBuilt();
    folder = copyFixture('faults-store-green');
    const green = runM3(['test'], folder);
    expect(green.status).toBe(0);
    runId = printedRunId(green.stdout);
    db = join(folder, '.m3', 'executions.sqlite');
  });
  afterAll(() => {
    for (const name of ['locked', '.m3']) if (existsSync(join(folder, name))) chmodSync(join(folder, name), 0o755);
    removeFixture(folder);
  });

  itWithPermissions(
    'a read-only database file: m3 test names the file and the fix; m3 runs and m3 report read it',
    () => {
      chmodSync(db, 0o444);
      try {
        const before = snapshot(db);
        const refused = runM3Unprivileged(['test'], folder);
        expectRefused(refused, `results database ${db} is read-only (EACCES)`);
        expect(refused.stderr).toContain(`chmod u+w ${db}`);
        const runs = runM3Unprivileged(['runs'], folder);
        expect({ status: runs.status, stderr: runs.stderr }).toEqual({ status: 0, stderr: '' });
        expect(runs.stdout).toContain(`${runId}  `);
        const report = runM3Unprivileged(['report', runId], folder);
        expect(report.status).toBe(0);
        expect(report.stdout).toMatch(/verdict {5}passed/);
        expect(snapshot(db)).toEqual(before);
      } finally {
        chmodSync(db, 0o644);
      }
    },
  );

  itWithPermissions(
    'a read-only folder: m3 test names the folder and the -wal/-shm; m3 runs and m3 report read it',
    () => {
      const locked = join(folder, 'locked');
      mkdirSync(locked);
      const path = join(locked, 'executions.sqlite');
      copyFileSync(db, path);
      chmodSync(locked, 0o555);
      const before = snapshot(path);
      const refused = runM3Unprivileged(['test', '--results-db', path], folder);
      expectRefused(refused, `the folder ${locked} of results database ${path} is read-only`);
      expect(refused.stderr).toContain('executions.sqlite-wal and executions.sqlite-shm');
      const runs = runM3Unprivileged(['runs', '--results-db', path, '--json'], folder);
      expect(runs.status).toBe(0);
      expect((JSON.parse(runs.stdout) as { runs: { runId: string }[] }).runs.map((r) => r.runId)).toEqual([runId]);
      const report = runM3Unprivileged(['report', '--results-db', path], folder);
      expect(report.status).toBe(0);
      expect(report.stdout).toContain(runId);
      expect(snapshot(path)).toEqual(before);
      expect(readdirSync(locked)).toEqual(['executions.sqlite']);
    },
  );

  test('another program’s SQLite file is refused and left byte for byte, with no -wal or -shm', async () => {
    const path = join(folder, 'foreign', 'app.sqlite');
    mkdirSync(join(folder, 'foreign'));
    await rawExec(path, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me');");
    const before = snapshot(path);
    expectRefused(
      runM3(['test', '--results-db', path], folder),
      /SQLite database of another program \(tables: notes\)/,
    );
    expectRefused(runM3(['runs', '--results-db', path], folder), /another program/);
    expect(snapshot(path)).toEqual(before);
    expect(readdirSync(join(folder, 'foreign'))).toEqual(['app.sqlite']);
  });

  test('random bytes are refused by name and left untouched', () => {
    const path = join(folder, 'random.sqlite');
    writeFileSync(path, randomBytes(16_384));
    const before = snapshot(path);
    expectRefused(runM3(['test', '--results-db', path], folder), `${path} is not an sf-m3 results database`);
    expectRefused(runM3(['report', '--results-db', path], folder), 'is not an sf-m3 results database');
    expect(snapshot(path)).toEqual(before);
  });

  test('a newer schema is refused naming both versions, and left untouched', async () => {
    mkdirSync(join(folder, 'newer'));
    const path = join(folder, 'newer', 'executions.sqlite');
    copyFileSync(db, path);
    await rawExec(path, 'PRAGMA user_version = 99');
    const before = snapshot(path);
    expectRefused(runM3(['test', '--results-db', path], folder), /schema version 99, newer than version \d+/);
    expectRefused(runM3(['runs', '--results-db', path], folder), /schema version 99, newer than version \d+/);
    expect(snapshot(path)).toEqual(before);
    expect(readdirSync(join(folder, 'newer'))).toEqual(['executions.sqlite']);
  });

  test('a path under a regular file names that file', () => {
    const file = join(folder, 'notes.txt');
    writeFileSync(file, 'not a folder');
    const path = join(file, 'db.sqlite');
    expectRefused(
      runM3(['test', '--results-db', path], folder),
      `results database path ${path} is inside ${file}, which is a file, not a folder`,
    );
    expect(readFileSync(file, 'utf8')).toBe('not a folder');
  });
});
