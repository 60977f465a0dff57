import { StoreError, StoreSchemaError } from '@sf-m3/core/store';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { identifyDatabase } from './databaseIdentity';
import { immediateTransaction } from './immediateTransaction';
import { checkWritable, preparePath, resolveStorePath } from './storePath';
import {
  makePrivateReadCopy,
  needsPrivateReadCopy,
  privateReadCopyNotice,
  type PrivateReadCopy,
} from './privateReadCopy';
import { readOnlyConnection } from './readOnlyConnection';
import { MIGRATIONS, SCHEMA_VERSION } from './schema';
import { SqliteConnection, sqliteErrorCode } from './SqliteConnection';

/** How long one statement waits for another process's lock before `SQLITE_BUSY`. */
export const BUSY_TIMEOUT_MS = 5_000;

/** Page cache per connection, in KiB. */
const CACHE_KIB = 32 * 1024;

/** The connections of one opened store: a writer (null when opened read-only) and a reader. */
export interface OpenedDatabase {
  readonly writer: SqliteConnection | null;
  readonly reader: SqliteConnection;
  readonly path: string;
  /** The schema version of the file: SCHEMA_VERSION once migrated; older when opened read-only. */
  readonly schemaVersion: number;
  /** The private copy the reader reads instead of `path` (see privateReadCopy.ts), removed on close. */
  readonly privateCopy: PrivateReadCopy | null;
}

/** Options of `openDatabase`. */
export interface OpenDatabaseOptions {
  /** How long one statement waits for another process's lock (default BUSY_TIMEOUT_MS). */
  readonly busyTimeoutMs?: number;
  /** Open an existing database for reading only. */
  readonly readOnly?: boolean;
  /** Receives one line when a read-only open reads a private copy instead of the file itself. */
  readonly onNotice?: (line: string) => void;
}

/** The writer of an opened store; a store opened read-only throws the read-only write error. */
export function writerOf(opened: OpenedDatabase): SqliteConnection {
  if (opened.writer === null) throw readOnlyWrite(opened.path);
  return opened.writer;
}

/** The error of a write to a store opened read-only: names the file and how to open it for writing. */
export function readOnlyWrite(path: string): StoreError {
  return new StoreError(`the results database ${path} was opened read-only: open it without readOnly to write`, {
    path,
  });
}

/** Translates an open/setup failure into an error that names the problem and the fix. */
function openFailure(path: string, error: unknown): Error {
  if (error instanceof StoreSchemaError || error instanceof StoreError) return error;
  const code = sqliteErrorCode(error) ?? 'unknown';
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new StoreError(
      `${path} is not an sf-m3 results database (not a SQLite file, or corrupt): move it away or choose another path`,
      { path, code },
      { cause: error },
    );
  }
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY' || code === 'SQLITE_PERM' || code === 'SQLITE_IOERR') {
    return new StoreError(
      `cannot open results database ${path} for writing: the location is read-only or not accessible (${code}) — ` +
        'make it writable or point --results-db at a writable path',
      { path, code },
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
    await connection.exec('PRAGMA synchronous = NORMAL');
  }
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
  if ((await userVersion(connection)) === SCHEMA_VERSION) return;
  await immediateTransaction(connection, async () => {
    const current = await userVersion(connection);
    if (current > SCHEMA_VERSION) throw refuseNewer(path, current);
    for (let version = current + 1; version <= SCHEMA_VERSION; version += 1) {
      await connection.exec(MIGRATIONS[version - 1]!);
    }
    await connection.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  });
}

/** Opens the writer: WAL, busy timeout, migrations; a newer schema is refused before any write. */
async function openWriter(path: string, busyTimeoutMs: number): Promise<SqliteConnection> {
  const writer = await SqliteConnection.open(path);
  try {
    await writer.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    const seen = await userVersion(writer);
    if (seen > SCHEMA_VERSION) throw refuseNewer(path, seen);
    await configure(writer, true, busyTimeoutMs);
    await migrate(path, writer);
    return writer;
  } catch (error) {
    await writer.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Opens a results database for writing: checks the path (creating parent folders), what the file
 * is (a foreign or unreadable file is refused before anything writes to it), that the file and
 * folder are writable, then opens a writer (WAL, migrations) and a reader connection. Reads use
 * their own connection so they never see a write transaction in flight.
 */
async function openForWriting(absolute: string, busyTimeoutMs: number): Promise<OpenedDatabase> {
  preparePath(absolute);
  const identity = await identifyDatabase(absolute);
  if (identity.kind === 'sf-m3' && identity.userVersion > SCHEMA_VERSION)
    throw refuseNewer(absolute, identity.userVersion);
  checkWritable(absolute, identity.kind === 'new' && !existsSync(absolute));
  let writer: SqliteConnection | null = null;
  try {
    writer = await openWriter(absolute, busyTimeoutMs);
    const reader = await SqliteConnection.open(absolute);
    await configure(reader, false, busyTimeoutMs);
    return { writer, reader, path: absolute, schemaVersion: SCHEMA_VERSION, privateCopy: null };
  } catch (error) {
    await writer?.close().catch(() => undefined);
    throw openFailure(absolute, error);
  }
}

/**
 * Opens an existing results database for reading only: nothing is created, migrated or written,
 * so it works on a read-only file or folder. An older schema is read as it is. A WAL database
 * SQLite cannot read in place (a `-wal` but no `-shm` in a read-only folder) is read through a
 * private copy, said in one line to `onNotice`; the original is only read.
 */
async function openForReading(
  absolute: string,
  busyTimeoutMs: number,
  onNotice: (line: string) => void,
): Promise<OpenedDatabase> {
  if (!existsSync(absolute)) {
    throw new StoreError(`no results database at ${absolute}: run \`m3 test\` first or pass --results-db`, {
      path: absolute,
    });
  }
  const privateCopy = needsPrivateReadCopy(absolute) ? makePrivateReadCopy(absolute) : null;
  const source = privateCopy?.path ?? absolute;
  let reader: SqliteConnection | null = null;
  try {
    const identity = await identifyDatabase(absolute, source);
    if (identity.kind === 'new') {
      throw new StoreError(`results database ${absolute} is empty: run \`m3 test\` first`, { path: absolute });
    }
    if (identity.userVersion > SCHEMA_VERSION) throw refuseNewer(absolute, identity.userVersion);
    reader = await readOnlyConnection(source);
    await configure(reader, false, busyTimeoutMs);
    const version = await userVersion(reader);
    if (version > SCHEMA_VERSION) throw refuseNewer(absolute, version);
    if (privateCopy !== null) {
      onNotice(privateReadCopyNotice(absolute));
    }
    return { writer: null, reader, path: absolute, schemaVersion: version, privateCopy };
  } catch (error) {
    await reader?.close().catch(() => undefined);
    privateCopy?.remove();
    if (sqliteErrorCode(error) === 'SQLITE_CANTOPEN' || sqliteErrorCode(error) === 'SQLITE_READONLY') {
      return Promise.reject(
        new StoreError(
          `cannot read results database ${absolute} (${String(sqliteErrorCode(error))}): check that ${dirname(absolute)} ` +
            'and the file are readable',
          { path: absolute },
          { cause: error },
        ),
      );
    }
    throw openFailure(absolute, error);
  }
}

/** Opens a results database for writing (the default) or, with `readOnly`, for reading only. */
export async function openDatabase(path: string, options: OpenDatabaseOptions = {}): Promise<OpenedDatabase> {
  const busyTimeoutMs = options.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
  const absolute = resolveStorePath(path);
  return options.readOnly === true
    ? openForReading(absolute, busyTimeoutMs, options.onNotice ?? (() => undefined))
    : openForWriting(absolute, busyTimeoutMs);
}
