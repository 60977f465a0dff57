import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { SqliteConnection } from './SqliteConnection';

/** Whether this process may write `path` (a file or folder); false on EACCES, EPERM, EROFS. */
export function isWritable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A read-only connection that creates no file beside `path`, for deciding what the file is. With
 * no `-wal` present nothing can hide in one, so the file is opened immutable (a plain read-only
 * open of a WAL database would create `-wal` and `-shm` and leave them); with one present, a
 * plain read-only open reads through it.
 */
export function probeConnection(path: string): Promise<SqliteConnection> {
  return SqliteConnection.open(path, existsSync(`${path}-wal`) ? { readOnly: true } : { immutable: true });
}

/**
 * The reader of a store opened read-only (`m3 runs`, `m3 report`). Where nobody can write (a
 * read-only file or folder) and no `-wal` exists, SQLite could not create its `-shm` and would
 * refuse a WAL database, so it is opened immutable; anywhere else a plain read-only connection
 * sees concurrent writers' commits safely.
 */
export function readOnlyConnection(path: string): Promise<SqliteConnection> {
  const locked = !isWritable(path) || !isWritable(dirname(path));
  return SqliteConnection.open(path, locked && !existsSync(`${path}-wal`) ? { immutable: true } : { readOnly: true });
}
