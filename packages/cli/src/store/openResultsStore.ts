// Opens the results database the CLI reads (and, before a run, checks the baseline in).
import { existsSync } from 'node:fs';
import type { ExecutionStore, Redactor } from '@sf-m3/core';
import { isPostgresUrl, openPostgresStore } from '@sf-m3/core/internal';
import type { CliIO } from '../CliIO';
import { UsageError } from '../options/UsageError';

/** Writes a store's notice line to stderr, redacted. */
export function noticeTo(io: CliIO, redactor: Redactor): (line: string) => void {
  return (line) => io.stderr(`${redactor.redactText(line)}\n`);
}

/**
 * Opens the SQLite store at `path` (a `postgres://` URL opens @sf-m3/store-postgres instead, read-only for
 * the reading commands; a missing database there is the store's `StoreError`). `mustExist` is for the reading commands (`m3 runs`,
 * `m3 report`): a missing file is a usage error naming `--results-db` (they never create an empty
 * database by accident), and the store is opened read-only, so a read-only file or folder works and
 * nothing is migrated or written. Otherwise (`m3 test`) the store opens for writing: its first use
 * creates the folders and the file, and refuses a foreign, read-only or unwritable location with a
 * `StoreError` naming the path and the fix. `onNotice` hears the one line a reading command says when
 * it reads a private copy of a database that cannot be read in place (a `-wal` with no `-shm` in a
 * read-only folder).
 */
export function openResultsStore(
  path: string,
  options: { mustExist: boolean; onNotice?: (line: string) => void },
): ExecutionStore {
  if (isPostgresUrl(path)) return openPostgresStore(path, { readOnly: options.mustExist }, [process.cwd()]);
  if (options.mustExist && !existsSync(path)) {
    throw new UsageError('--results-db', `no results database at ${path}; run \`m3 test\` first or pass --results-db`);
  }
  // Loaded on demand: `m3 --help` and usage errors never load the native sqlite3 module.
  const { SQLiteExecutionStore } = require('@sf-m3/store-sqlite') as typeof import('@sf-m3/store-sqlite');
  return new SQLiteExecutionStore(path, { readOnly: options.mustExist, onNotice: options.onNotice });
}

/**
 * Opens the store `m3 test` writes into, now: a path, permission or foreign-file problem is a
 * `StoreError` (exit 2) before Jest starts, instead of a failure inside Jest's global setup.
 */
export async function openRunResultsStore(path: string): Promise<ExecutionStore> {
  const { SQLiteExecutionStore } = require('@sf-m3/store-sqlite') as typeof import('@sf-m3/store-sqlite');
  const store = isPostgresUrl(path) ? openPostgresStore(path, {}, [process.cwd()]) : new SQLiteExecutionStore(path);
  try {
    await store.open();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
