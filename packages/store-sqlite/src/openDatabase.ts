import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ModelValidationError, StoreError, StoreSchemaError } from '@sf-m3/core';
import { immediateTransaction } from './immediateTransaction';
import { MIGRATIONS, SCHEMA_VERSION } from './schema';
import { SqliteConnection, sqliteErrorCode } from './SqliteConnection';

/** How long one statement waits for another process's lock before `SQLITE_BUSY`. */
export const BUSY_TIMEOUT_MS = 5_000;

/** Page cache per connection, in KiB. */
const CACHE_KIB = 32 * 1024;

/** The writer and reader connections of one opened store. */
export interface OpenedDatabase {
  readonly writer: SqliteConnection;
  readonly reader: SqliteConnection;
  readonly path: string;
}

/** Checks the path and creates its parent folders; throws `StoreError` saying what to fix. */
function preparePath(path: string): string {
  if (typeof path !== 'string' || path.trim() === '' || path === ':memory:' || path.startsWith('file:')) {
    throw new ModelValidationError(
      'SQLiteExecutionStore needs a file path such as .m3/executions.sqlite (use InMemoryExecutionStore for memory)',
    );
  }
  const absolute = resolve(path);
  const stat = statSync(absolute, { throwIfNoEntry: false });
  if (stat?.isDirectory()) {
    throw new StoreError(
      `results database path is a directory: ${absolute} — give a file path inside it, e.g. ${absolute}/executions.sqlite`,
      {
        path: absolute,
      },
    );
  }
  try {
    mkdirSync(dirname(absolute), { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    const reason =
      code === 'ENOTDIR' || code === 'EEXIST' ? 'a parent of it is a file' : 'the location is not writable';
    throw new StoreError(
      `cannot create the folder of results database ${absolute}: ${reason} (${code}) — choose a writable path`,
      {
        path: absolute,
        code,
      },
      { cause: error },
    );
  }
  return absolute;
}

/** Translates an open/setup failure into an error that names the problem and the fix. */
function openFailure(path: string, error: unknown): Error {
  if (error instanceof StoreSchemaError || error instanceof StoreError) return error;
  const code = sqliteErrorCode(error) ?? 'unknown';
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new StoreError(
      `${path} is not an sf-m3 results database (not a SQLite file, or corrupt): move it away or choose another path`,
      {
        path,
        code,
      },
      { cause: error },
    );
  }
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY' || code === 'SQLITE_PERM' || code === 'SQLITE_IOERR') {
    return new StoreError(
      `cannot open results database ${path} for writing: the location is read-only or not accessible (${code}) — choose a writable path`,
      {
        path,
        code,
      },
      { cause: error },
    );
  }
  return new StoreError(`cannot open results database ${path} (${code})`, { path, code }, { cause: error });
}

async function configure(connection: SqliteConnection, writer: boolean, busyTimeoutMs: number): Promise<void> {
  await connection.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  await connection.exec('PRAGMA foreign_keys = ON');
  if (writer) {
    const mode = await connection.get<{ journal_mode: string }>('PRAGMA journal_mode = WAL');
    if (mode?.journal_mode?.toLowerCase() !== 'wal') {
      throw new StoreError('the results database could not switch to WAL mode: use a local file system', {});
    }
  }
  await connection.exec('PRAGMA synchronous = NORMAL');
  // Lineage keys and label indexes take random-ish insert positions: keep their pages cached.
  await connection.exec(`PRAGMA cache_size = -${CACHE_KIB}`);
}

async function userVersion(connection: SqliteConnection): Promise<number> {
  const row = await connection.get<{ user_version: number }>('PRAGMA user_version');
  return row?.user_version ?? 0;
}

function refuseNewer(path: string, found: number): StoreSchemaError {
  return new StoreSchemaError(
    `results database ${path} has schema version ${found}, newer than version ${SCHEMA_VERSION} this @sf-m3/store-sqlite supports: ` +
      'upgrade sf-m3, or point --results-db at another file',
    { path, databaseVersion: found, supportedVersion: SCHEMA_VERSION },
  );
}

/** Applies missing migrations in one `BEGIN IMMEDIATE`; another process may be doing the same. */
async function migrate(path: string, connection: SqliteConnection): Promise<void> {
  const seen = await userVersion(connection);
  if (seen > SCHEMA_VERSION) throw refuseNewer(path, seen);
  if (seen === SCHEMA_VERSION) return;
  await immediateTransaction(connection, async () => {
    const current = await userVersion(connection);
    if (current > SCHEMA_VERSION) throw refuseNewer(path, current);
    for (let version = current + 1; version <= SCHEMA_VERSION; version += 1) {
      await connection.exec(MIGRATIONS[version - 1]!);
    }
    await connection.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  });
}

/**
 * Opens a results database: checks the path, creates parent folders, opens a writer (WAL, busy
 * timeout, migrations) and a reader connection. Reads use their own connection so they never see
 * a write transaction in flight.
 */
export async function openDatabase(path: string, options: { busyTimeoutMs?: number } = {}): Promise<OpenedDatabase> {
  const busyTimeoutMs = options.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
  const absolute = preparePath(path);
  let writer: SqliteConnection | null = null;
  let reader: SqliteConnection | null = null;
  try {
    writer = await SqliteConnection.open(absolute);
    await configure(writer, true, busyTimeoutMs);
    await migrate(absolute, writer);
    reader = await SqliteConnection.open(absolute);
    await configure(reader, false, busyTimeoutMs);
    return { writer, reader, path: absolute };
  } catch (error) {
    await writer?.close().catch(() => undefined);
    await reader?.close().catch(() => undefined);
    throw openFailure(absolute, error);
  }
}
