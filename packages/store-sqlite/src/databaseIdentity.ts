import { StoreError } from '@sf-m3/core/store';
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { probeConnection } from './readOnlyConnection';
import type { SqliteConnection } from './SqliteConnection';

/** `PRAGMA application_id` of every sf-m3 results database ("M3M3"). */
export const SF_M3_APPLICATION_ID = 0x4d334d33;

/** Tables every sf-m3 database has had since schema version 1. */
const SF_M3_TABLES = ['runs', 'executions', 'evaluations', 'blobs'];

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const HEADER_BYTES = 100;

/** What a results-database path holds, decided without writing to it. */
export type DatabaseIdentity = { readonly kind: 'new' } | { readonly kind: 'sf-m3'; readonly userVersion: number };

const NEW: DatabaseIdentity = { kind: 'new' };

/** The first 100 bytes of the file, or null when it does not exist or is empty. */
function readHeader(path: string): Buffer | null {
  if (!existsSync(path)) return null;
  const fd = openSync(path, 'r');
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    const read = readSync(fd, header, 0, HEADER_BYTES, 0);
    return read === 0 ? null : header.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

function notSqlite(path: string): StoreError {
  return new StoreError(
    `${path} is not an sf-m3 results database (it is not a SQLite file, or it is corrupt); sf-m3 left it untouched: ` +
      'move it away or point --results-db at another file',
    { path, code: 'SQLITE_NOTADB' },
  );
}

function foreign(path: string, tables: readonly string[]): StoreError {
  const shown = tables.slice(0, 5).join(', ') + (tables.length > 5 ? ', …' : '');
  return new StoreError(
    `${path} is a SQLite database of another program (tables: ${shown}), not an sf-m3 results database; ` +
      'sf-m3 left it untouched: point --results-db at another file (default .m3/executions.sqlite)',
    { path, code: 'foreign_database' },
  );
}

/**
 * Decides what `path` holds before anything opens it for writing: nothing yet (`new`), an sf-m3
 * results database (and its schema version), or something else, refused with a `StoreError` so a
 * foreign file is never switched to WAL, migrated or given a `-wal`/`-shm`. The header rules out
 * non-SQLite files; a connection that creates no file then reads the application id, the schema
 * version and, without sf-m3's application id (older sf-m3, another program, or a database
 * another worker is creating right now), the table names. `readFrom` is a private copy to read
 * instead (see privateReadCopy.ts); errors still name `path`.
 */
export async function identifyDatabase(path: string, readFrom: string = path): Promise<DatabaseIdentity> {
  const header = readHeader(readFrom);
  if (header === null) return NEW;
  if (header.length < HEADER_BYTES || !header.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) {
    throw notSqlite(path);
  }
  let probe: SqliteConnection;
  try {
    probe = await probeConnection(readFrom);
  } catch (error) {
    throw new StoreError(`cannot read results database ${path} to check what it is: ${(error as Error).message}`, {
      path,
    });
  }
  try {
    // The main file's header may be stale in WAL mode (not yet checkpointed): ask SQLite.
    const id = (await probe.get<{ application_id: number }>('PRAGMA application_id'))?.application_id ?? 0;
    const userVersion = (await probe.get<{ user_version: number }>('PRAGMA user_version'))?.user_version ?? 0;
    if (id >>> 0 === SF_M3_APPLICATION_ID) return { kind: 'sf-m3', userVersion };
    const tables = (
      await probe.all<{ name: string }>(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
    ).map((row) => row.name);
    // An empty database holds nothing to protect, and may be one another worker is creating.
    if (id === 0 && tables.length === 0 && userVersion === 0) return NEW;
    if (id === 0 && userVersion >= 1 && SF_M3_TABLES.every((table) => tables.includes(table))) {
      return { kind: 'sf-m3', userVersion };
    }
    throw foreign(path, tables);
  } catch (error) {
    if (error instanceof StoreError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') throw notSqlite(path);
    throw error;
  } finally {
    await probe.close().catch(() => undefined);
  }
}
