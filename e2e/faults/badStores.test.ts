// Bad results databases, through the real `m3` bin: a read-only file or folder, another program's
// SQLite file, random bytes, a newer schema and a path under a regular file each end in a named
// error with the fix and exit status 2, in bounded time, leaving the file exactly as it was; and
// `m3 runs`/`m3 report` read a database nobody may write. Permissions bind only an unprivileged
// process, so those commands run through unprivileged() (as root: without CAP_DAC_OVERRIDE). The
// refusals of random bytes, a newer schema and a path under a file go through the bin's compiled
// main in this process (the same code; the bin's own exit status is shown by the cases before them).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import * as sqlite3 from 'sqlite3';
import { SQLiteExecutionStore } from '@sf-m3/store-sqlite';
import { canRunUnprivileged, unprivileged } from '../../packages/store-sqlite/src/unprivileged.testkit';
import {
  childEnv,
  copyFixture,
  ensureBuilt,
  m3Bin,
  printedRunId,
  removeFixture,
  runM3,
  runM3InProcess,
  type M3Run,
} from '../cli.testkit';

jest.setTimeout(240_000);

/** Generous bound for one refused `m3` command on a loaded machine; a hang fails the test. */
const BOUND_MS = 90_000;

function runM3Unprivileged(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): M3Run & { signal: NodeJS.Signals | null } {
  const { command, args: argv } = unprivileged(process.execPath, [m3Bin, ...args]);
  const result = spawnSync(command, argv, { cwd, env: childEnv(env), encoding: 'utf8', timeout: BOUND_MS });
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

/** The run ids the main file holds, read immutable: without what its -wal holds. */
function runIdsWithoutWal(path: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const mode = sqlite3.OPEN_READONLY | sqlite3.OPEN_URI;
    const db = new sqlite3.Database(`${pathToFileURL(path).href}?immutable=1`, mode, (openError) => {
      if (openError) return reject(openError);
      db.all<{ run_id: string }>('SELECT run_id FROM runs', (error, rows) =>
        db.close(() => (error ? reject(error) : resolve(rows.map((row) => row.run_id)))),
      );
    });
  });
}

/**
 * `m3 <args>` in the fixture through the compiled CLI's main in this process: a refusal is decided
 * there, before any process would start, so the later refusals need no `m3` process of their own.
 */
const m3InProcess = (args: string[], folder: string): Promise<M3Run> => runM3InProcess(args, folder);

/** Expects a refusal: exit 2 in bounded time, the message on stderr, Jest never started. */
function expectRefused(
  run: Pick<M3Run, 'status' | 'stdout' | 'stderr'> & { signal?: NodeJS.Signals | null },
  message: string | RegExp,
): void {
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
    for (const name of ['locked', 'copied', '.m3'])
      if (existsSync(join(folder, name))) chmodSync(join(folder, name), 0o755);
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

  itWithPermissions(
    'a copied history (read-only file and -wal, no -shm, read-only folder): m3 runs and m3 report read a private copy',
    async () => {
      // A second run written while the store is open stays in the -wal: copy the file and its -wal
      // then, as a CI artifact is copied, so what only the -wal holds must still be listed.
      const source = join(folder, 'live', 'executions.sqlite');
      mkdirSync(join(folder, 'live'));
      copyFileSync(db, source);
      const copied = join(folder, 'copied');
      const path = join(copied, 'executions.sqlite');
      mkdirSync(copied);
      const store = new SQLiteExecutionStore(source);
      try {
        await store.saveRun({ ...(await store.getRun(runId))!, runId: 'run-only-in-wal', label: 'wal' });
        for (const suffix of ['', '-wal']) copyFileSync(`${source}${suffix}`, `${path}${suffix}`);
      } finally {
        await store.close();
      }
      expect(readdirSync(copied)).toEqual(['executions.sqlite', 'executions.sqlite-wal']);
      for (const name of readdirSync(copied)) chmodSync(join(copied, name), 0o444);
      chmodSync(copied, 0o555);
      // What immutable=1 would read: the run only the -wal holds is missing there.
      expect(await runIdsWithoutWal(path)).toEqual([runId]);
      const before = { db: snapshot(path), wal: readFileSync(`${path}-wal`).toString('base64') };
      const tmp = mkdtempSync(join(tmpdir(), 'm3-e2e-tmpdir-'));
      try {
        const runs = runM3Unprivileged(['runs', '--results-db', path], folder, { TMPDIR: tmp });
        expect({ status: runs.status, signal: runs.signal }).toEqual({ status: 0, signal: null });
        expect(runs.stdout).toMatch(/^run-only-in-wal {2}.* {2}wal$/m);
        expect(runs.stdout).toContain(`${runId}  `);
        expect(runs.stderr).toBe(
          `m3: ${path} has a -wal but no -shm in a read-only folder: reading a private copy of it and its -wal ` +
            '(the original is left untouched)\n',
        );
        const report = runM3Unprivileged(['report', 'run-only-in-wal', '--results-db', path], folder, { TMPDIR: tmp });
        expect(report.status).toBe(0);
        expect(report.stdout).toMatch(/verdict {5}passed/);
        expect(readdirSync(tmp)).toEqual([]);
      } finally {
        removeFixture(tmp);
      }
      expect({ db: snapshot(path), wal: readFileSync(`${path}-wal`).toString('base64') }).toEqual(before);
      expect(readdirSync(copied)).toEqual(['executions.sqlite', 'executions.sqlite-wal']);
    },
  );

  test('another program’s SQLite file is refused and left byte for byte, with no -wal or -shm', async () => {
    const path = join(folder, 'foreign', 'app.sqlite');
    mkdirSync(join(folder, 'foreign'));
    await rawExec(path, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me');");
    const before = snapshot(path);
    // Through the bin: the process's exit status and stderr.
    expectRefused(
      runM3(['test', '--results-db', path], folder),
      /SQLite database of another program \(tables: notes\)/,
    );
    expectRefused(runM3(['runs', '--results-db', path], folder), /another program/);
    expect(snapshot(path)).toEqual(before);
    expect(readdirSync(join(folder, 'foreign'))).toEqual(['app.sqlite']);
  });

  test('random bytes are refused by name and left untouched', async () => {
    const path = join(folder, 'random.sqlite');
    writeFileSync(path, randomBytes(16_384));
    const before = snapshot(path);
    expectRefused(
      await m3InProcess(['test', '--results-db', path], folder),
      `${path} is not an sf-m3 results database`,
    );
    expectRefused(await m3InProcess(['report', '--results-db', path], folder), 'is not an sf-m3 results database');
    expect(snapshot(path)).toEqual(before);
  });

  test('a newer schema is refused naming both versions, and left untouched', async () => {
    mkdirSync(join(folder, 'newer'));
    const path = join(folder, 'newer', 'executions.sqlite');
    copyFileSync(db, path);
    await rawExec(path, 'PRAGMA user_version = 99');
    const before = snapshot(path);
    expectRefused(
      await m3InProcess(['test', '--results-db', path], folder),
      /schema version 99, newer than version \d+/,
    );
    expectRefused(
      await m3InProcess(['runs', '--results-db', path], folder),
      /schema version 99, newer than version \d+/,
    );
    expect(snapshot(path)).toEqual(before);
    expect(readdirSync(join(folder, 'newer'))).toEqual(['executions.sqlite']);
  });

  test('a path under a regular file names that file', async () => {
    const file = join(folder, 'notes.txt');
    writeFileSync(file, 'not a folder');
    const path = join(file, 'db.sqlite');
    expectRefused(
      await m3InProcess(['test', '--results-db', path], folder),
      `results database path ${path} is inside ${file}, which is a file, not a folder`,
    );
    expect(readFileSync(file, 'utf8')).toBe('not a folder');
  });
});
