/**
 * `SQLiteExecutionStore.finishExecution` in two steps: the finished execution is checked before
 * any write (core's `checkFinishedExecution`) (its trace belongs to it, its time is canonical, every evidence blob matches its
 * reference), then its rows are replaced in one write transaction, so a crash leaves either the
 * whole finished execution or the unfinished one.
 */
import type { ExecutionRecord } from '@sf-m3/core';
import { type CheckedFinish, finishedExecutionLabels, ExecutionNotFound } from '@sf-m3/core/store';
import { encodeEventChunks } from '../eventChunks';
import { frameTexts, insertEventChunks } from '../eventRows';
import { insertEvidenceBlobs } from '../evidenceBlobs';
import type { SqliteConnection } from '../SqliteConnection';

/** The tables that hold what an execution saved when it finished, cleared before it is saved again. */
const FINISHED_TABLES = ['events', 'event_chunks', 'traces', 'sessions', 'turns', 'execution_blobs'];

/**
 * Marks the stored execution finished and replaces its trace, event chunks, evidence links,
 * sessions and turns; run it inside the caller's write transaction. A missing execution rejects
 * with `ExecutionNotFound`.
 */
export async function writeFinishedExecution(db: SqliteConnection, checked: CheckedFinish): Promise<void> {
  const { finished, data, finishedAt, blobs } = checked;
  const row = await db.get<{ record_json: string }>('SELECT record_json FROM executions WHERE execution_id = ?', [
    finished.executionId,
  ]);
  if (row === undefined) throw new ExecutionNotFound(finished.executionId);
  const created = JSON.parse(row.record_json) as ExecutionRecord;
  // The snapshot's metadata (how it ran, e.g. from a cassette: contract §24) joins its metadata labels.
  const labels = finishedExecutionLabels(created.labels, finished.snapshot);
  const record: ExecutionRecord = {
    ...created,
    labels,
    outcome: finished.outcome,
    finishedAt,
    snapshot: finished.snapshot,
  };
  const id = finished.executionId;
  await db.run(
    'UPDATE executions SET finished_at = ?, outcome = ?, metadata_json = ?, record_json = ? WHERE execution_id = ?',
    [finishedAt, finished.outcome, JSON.stringify(labels.metadata ?? {}), JSON.stringify(record), id],
  );
  for (const table of FINISHED_TABLES) {
    await db.run(`DELETE FROM ${table} WHERE execution_id = ?`, [id]);
  }
  await db.run(
    'INSERT INTO traces (execution_id, trace_id, completeness, limitations_json, event_count) VALUES (?, ?, ?, ?, ?)',
    [id, data.traceId, data.completeness, JSON.stringify(data.limitations), data.events.length],
  );
  await insertEventChunks(db, id, encodeEventChunks(id, data.events, frameTexts(blobs)));
  await insertEvidenceBlobs(db, id, blobs);
  for (const session of finished.sessions ?? []) {
    await db.run('INSERT INTO sessions (session_id, execution_id, created_at, record_json) VALUES (?, ?, ?, ?)', [
      session.sessionId,
      id,
      session.createdAt,
      JSON.stringify(session),
    ]);
  }
  for (const turn of finished.turns ?? []) {
    await db.run('INSERT INTO turns (turn_id, execution_id, turn_index, record_json) VALUES (?, ?, ?, ?)', [
      turn.turnId,
      id,
      turn.index,
      JSON.stringify(turn),
    ]);
  }
}
