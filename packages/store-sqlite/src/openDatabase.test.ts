import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as sqlite3 from 'sqlite3';
import { StoreError, StoreSchemaError } from '@sf-m3/core';
import { SF_M3_APPLICATION_ID } from './databaseIdentity';
import { SCHEMA_VERSION } from './schema';
import { SQLiteExecutionStore } from './SQLiteExecutionStore';

const root = mkdtempSync(join(tmpdir(), 'm3-sqlite-open-'));
let n = 0;
const freshPath = (): string => {
  const path = join(root, `case-${++n}`, 'executions.sqlite');
  mkdirSync(dirname(path), { recursive: true });
  return path;
};

/** Runs a script on the file with raw sqlite3 (another program's writes), then closes it. */
function rawExec(path: string, sql: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, (openError) => {
      if (openError) return reject(openError);
      db.exec(sql, (error) => db.close(() => (error ? reject(error) : resolve())));
    });
  });
}

/** The files of the folder holding `path` (to see that no -wal, -shm or -journal appeared). */
const siblings = (path: string): string[] => require('node:fs').readdirSync(dirname(path)).sort();

/** Opens `path` for writing and expects a refusal that leaves the file exactly as it was. */
async function expectRefusedUntouched(path: string, error: new (...args: never[]) => Error, message: RegExp) {
  const before = readFileSync(path);
  const files = siblings(path);
  const store = new SQLiteExecutionStore(path);
  const opening = store.open();
  await expect(opening).rejects.toThrow(error);
  await expect(store.open()).rejects.toThrow(message);
  await expect(store.registerSuite('never')).rejects.toThrow(message);
  await store.close();
  const reader = new SQLiteExecutionStore(path, { readOnly: true });
  await expect(reader.listRuns()).rejects.toThrow(message);
  await reader.close();
  expect(readFileSync(path).equals(before)).toBe(true);
  expect(siblings(path)).toEqual(files);
}

describe('opening a results database', () => {
  it('refuses another program’s SQLite file (rollback journal) without modifying it', async () => {
    const path = freshPath();
    await rawExec(path, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');");
    await expectRefusedUntouched(
      path,
      StoreError,
      /SQLite database of another program \(tables: notes\).*left it untouched/,
    );
    expect(siblings(path)).toEqual(['executions.sqlite']);
  });

  it('refuses another program’s WAL-mode SQLite file without leaving -wal or -shm', async () => {
    const path = freshPath();
    await rawExec(path, 'PRAGMA journal_mode = WAL; CREATE TABLE orders (id INTEGER); INSERT INTO orders VALUES (1);');
    expect(siblings(path)).toEqual(['executions.sqlite']);
    await expectRefusedUntouched(path, StoreError, /another program \(tables: orders\)/);
    expect(siblings(path)).toEqual(['executions.sqlite']);
  });

  it('refuses a SQLite file with another application id, even with sf-m3 table names', async () => {
    const path = freshPath();
    await rawExec(path, 'PRAGMA application_id = 42; CREATE TABLE runs (x); CREATE TABLE executions (x);');
    await expectRefusedUntouched(path, StoreError, /another program \(tables: executions, runs\)/);
  });

  it('refuses random bytes, naming the file', async () => {
    const path = freshPath();
    writeFileSync(path, randomBytes(8192));
    await expectRefusedUntouched(
      path,
      StoreError,
      /executions\.sqlite is not an sf-m3 results database \(it is not a SQLite file/,
    );
    const short = freshPath();
    writeFileSync(short, randomBytes(40));
    await expectRefusedUntouched(short, StoreError, /is not an sf-m3 results database/);
  });

  it('refuses a SQLite header over garbage pages', async () => {
    const path = freshPath();
    const bytes = randomBytes(8192);
    Buffer.from('SQLite format 3\0', 'latin1').copy(bytes, 0);
    bytes.writeUInt16BE(4096, 16);
    writeFileSync(path, bytes);
    await expectRefusedUntouched(path, StoreError, /is not an sf-m3 results database/);
  });

  it('refuses a newer schema, naming both versions, before writing anything', async () => {
    const path = freshPath();
    const first = new SQLiteExecutionStore(path);
    await first.registerSuite('catalog');
    await first.close();
    await rawExec(path, `PRAGMA user_version = ${SCHEMA_VERSION + 3}`);
    const message = new RegExp(`schema version ${SCHEMA_VERSION + 3}, newer than version ${SCHEMA_VERSION}`);
    await expectRefusedUntouched(path, StoreSchemaError, message);
  });

  it('refuses a newer schema in rollback-journal mode without switching it to WAL', async () => {
    const path = freshPath();
    const first = new SQLiteExecutionStore(path);
    await first.registerSuite('catalog');
    await first.close();
    await rawExec(path, `PRAGMA journal_mode = DELETE; PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    await expectRefusedUntouched(path, StoreSchemaError, /newer than version/);
    expect(readFileSync(path)[18]).toBe(1); // still a rollback-journal file
  });

  it('names the file when the path is under a regular file, instead of EEXIST or ENOTDIR', async () => {
    const folder = dirname(freshPath());
    const file = join(folder, 'file.txt');
    writeFileSync(file, 'notes');
    for (const path of [join(file, 'db.sqlite'), join(file, 'deeper', 'db.sqlite')]) {
      const store = new SQLiteExecutionStore(path);
      const failure = store.open();
      await expect(failure).rejects.toThrow(StoreError);
      await expect(store.open()).rejects.toThrow(`results database path ${path} is inside ${file}, which is a file`);
      await expect(store.open()).rejects.not.toThrow(/EEXIST|ENOTDIR/);
      await store.close();
    }
    expect(readFileSync(file, 'utf8')).toBe('notes');
  });

  it('marks a new database with the sf-m3 application id and takes an empty file as new', async () => {
    const path = freshPath();
    writeFileSync(path, '');
    const store = new SQLiteExecutionStore(path);
    await store.registerSuite('catalog');
    await store.close();
    expect(readFileSync(path).readUInt32BE(68)).toBe(SF_M3_APPLICATION_ID);
  });

  it('opens read-only: reads, refuses writes, creates and changes nothing', async () => {
    const path = freshPath();
    const writer = new SQLiteExecutionStore(path);
    await writer.saveRun({
      runId: 'run-read-only',
      label: null,
      startedAt: '2026-11-30T10:00:00.000Z',
      finishedAt: null,
      status: 'running',
      argv: [],
      counts: { passed: 0, failed: 0, skipped: 0, todo: 0 },
    });
    await writer.close();
    const before = readFileSync(path);
    const reader = new SQLiteExecutionStore(path, { readOnly: true });
    expect((await reader.listRuns()).map((r) => r.runId)).toEqual(['run-read-only']);
    await expect(reader.registerSuite('x')).rejects.toThrow(/opened read-only/);
    await reader.close();
    expect(readFileSync(path).equals(before)).toBe(true);

    const missing = join(root, 'missing', 'executions.sqlite');
    const none = new SQLiteExecutionStore(missing, { readOnly: true });
    await expect(none.listRuns()).rejects.toThrow(/no results database at/);
    await none.close();
    expect(existsSync(dirname(missing))).toBe(false);
  });
});
