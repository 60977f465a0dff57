import type { TraceEvent } from '@sf-m3/core';
import {
  expandEvents,
  framesReferenced,
  inflateEventChunk,
  type EventChunk,
  type FrameText,
  type StoredEvent,
} from './eventChunks';
import type { SqliteConnection } from './SqliteConnection';

/** The schema version that added `event_chunks`. */
const CHUNKS_SINCE_VERSION = 2;

/** The text of each evidence blob written with a trace, decoded once on first use. */
export function frameTexts(blobs: readonly { sha256: string; blob: { bytes: Buffer } }[]): FrameText {
  const bytes = new Map(blobs.map(({ sha256, blob }) => [sha256, blob.bytes]));
  const texts = new Map<string, string>();
  return (sha256) => {
    const cached = texts.get(sha256);
    if (cached !== undefined) return cached;
    const frame = bytes.get(sha256);
    if (frame === undefined) return undefined;
    const text = frame.toString('utf8');
    texts.set(sha256, text);
    return text;
  };
}

/** Writes an execution's event chunks (inside the caller's transaction). */
export async function insertEventChunks(
  db: SqliteConnection,
  executionId: string,
  chunks: readonly EventChunk[],
): Promise<void> {
  for (const chunk of chunks) {
    await db.run(
      'INSERT INTO event_chunks (execution_id, first_sequence, event_count, format, body) VALUES (?, ?, ?, ?, ?)',
      [executionId, chunk.firstSequence, chunk.eventCount, chunk.format, chunk.body],
    );
  }
}

/** The texts of the execution's evidence frames named by `shas`. */
async function loadFrames(db: SqliteConnection, executionId: string, shas: readonly string[]): Promise<FrameText> {
  const texts = new Map<string, string>();
  for (const sha256 of shas) {
    const row = await db.get<{ bytes: Buffer }>(
      'SELECT b.bytes FROM execution_blobs eb JOIN blobs b ON b.sha256 = eb.sha256 WHERE eb.execution_id = ? AND eb.sha256 = ?',
      [executionId, sha256],
    );
    if (row !== undefined) texts.set(sha256, Buffer.from(row.bytes).toString('utf8'));
  }
  return (sha256) => texts.get(sha256);
}

/**
 * Every saved event of an execution, in order: its chunks (schema version 2 on), or the one row
 * per event that schema version 1 wrote, which a migrated database keeps.
 */
export async function readEvents(
  db: SqliteConnection,
  executionId: string,
  schemaVersion: number,
): Promise<TraceEvent[]> {
  if (schemaVersion >= CHUNKS_SINCE_VERSION) {
    const chunks = await db.all<{ first_sequence: number; event_count: number; format: number; body: Buffer }>(
      'SELECT first_sequence, event_count, format, body FROM event_chunks WHERE execution_id = ? ORDER BY first_sequence',
      [executionId],
    );
    if (chunks.length > 0) {
      const stored: StoredEvent[] = chunks.flatMap((row) =>
        inflateEventChunk({
          firstSequence: row.first_sequence,
          eventCount: row.event_count,
          format: row.format,
          body: Buffer.from(row.body),
        }),
      );
      return expandEvents(stored, executionId, await loadFrames(db, executionId, framesReferenced(stored)));
    }
  }
  const rows = await db.all<{ event_json: string }>(
    'SELECT event_json FROM events WHERE execution_id = ? ORDER BY sequence',
    [executionId],
  );
  return rows.map((row) => JSON.parse(row.event_json) as TraceEvent);
}
