import { SqliteConnection } from '../SqliteConnection';

/** The size of the database in bytes: pages in use times page size (the main file once checkpointed). */
export async function databaseBytes(db: SqliteConnection): Promise<number> {
  const pages = await db.get<{ page_count: number }>('PRAGMA page_count');
  const size = await db.get<{ page_size: number }>('PRAGMA page_size');
  return Number(pages?.page_count ?? 0) * Number(size?.page_size ?? 0);
}

/**
 * Gives the pages freed by a prune back to the file system: `VACUUM` rewrites the database
 * without them (sf-m3 files use `auto_vacuum = NONE`, so `incremental_vacuum` would free
 * nothing), then a truncating checkpoint moves the rewrite out of the `-wal` and shrinks it to
 * zero bytes. It runs on its own connection, outside any transaction, and waits up to
 * `busyTimeoutMs` for other writers. Returns the database size afterwards.
 */
export async function reclaimSpace(path: string, busyTimeoutMs: number): Promise<number> {
  const db = await SqliteConnection.open(path);
  try {
    await db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    await db.exec('VACUUM');
    await db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    return await databaseBytes(db);
  } finally {
    await db.close();
  }
}
