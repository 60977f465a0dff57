/**
 * Raw evidence blobs in SQLite: an execution's blobs checked against their references before
 * anything is written, their rows (one `blobs` row per digest, shared by every execution that
 * saved the same bytes, and one `execution_blobs` link per execution), and their bytes read back.
 */
import type { CheckedBlob } from '@sf-m3/core/store';
import type { SqliteConnection } from './SqliteConnection';

/**
 * Stores the blobs (a digest already stored keeps its row) and links each to the execution;
 * run it inside the caller's write transaction.
 */
export async function insertEvidenceBlobs(
  db: SqliteConnection,
  executionId: string,
  blobs: readonly CheckedBlob[],
): Promise<void> {
  for (const { sha256, blob } of blobs) {
    await db.run(
      'INSERT INTO blobs (sha256, size_bytes, media_type, bytes) VALUES (?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING',
      [sha256, blob.bytes.length, blob.reference.mediaType, blob.bytes],
    );
    await db.run('INSERT OR IGNORE INTO execution_blobs (execution_id, sha256) VALUES (?, ?)', [executionId, sha256]);
  }
}

/** The stored bytes of the blob with digest `sha256`, or null when none is stored. */
export async function readBlobBytes(db: SqliteConnection, sha256: string): Promise<Buffer | null> {
  const row = await db.get<{ bytes: Buffer }>('SELECT bytes FROM blobs WHERE sha256 = ?', [sha256]);
  return row === undefined ? null : Buffer.from(row.bytes);
}
