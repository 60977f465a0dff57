import { deflateRawSync } from 'node:zlib';
import type { ExecutionRecord, FinishedExecution } from '@sf-m3/core';
import {
  type CheckedFinish,
  checkFinishedExecution,
  finishedExecutionLabels,
  ExecutionNotFound,
} from '@sf-m3/core/store';
import type { PoolClient } from 'pg';

const json = (value: unknown): string => JSON.stringify(value);

/** A finished execution checked (core's `checkFinishedExecution`) and its events deflated, before its transaction starts. */
export interface PreparedFinish extends CheckedFinish {
  readonly id: string;
  readonly events: Buffer;
}

/** Checks the finished execution and deflates its events (one JSON array). */
export function prepareFinishedExecution(finished: FinishedExecution): PreparedFinish {
  const checked = checkFinishedExecution(finished);
  const events = deflateRawSync(Buffer.from(json(checked.data.events), 'utf8'));
  return { ...checked, id: finished.executionId, events };
}

/**
 * Writes the finished execution, its trace, evidence, sessions and turns inside the caller's
 * transaction, replacing what an earlier finish of the same execution wrote.
 */
export async function writeFinishedExecution(db: PoolClient, prepared: PreparedFinish): Promise<void> {
  const { finished, id, finishedAt, data, events, blobs } = prepared;
  const { rows } = await db.query<{ record_json: string }>(
    'SELECT record_json FROM executions WHERE execution_id = $1 FOR UPDATE',
    [id],
  );
  if (rows.length === 0) throw new ExecutionNotFound(id);
  const created = JSON.parse(rows[0]!.record_json) as ExecutionRecord;
  // The snapshot's metadata (how it ran, e.g. from a cassette: contract §24) joins its metadata labels.
  const labels = finishedExecutionLabels(created.labels, finished.snapshot);
  const record: ExecutionRecord = {
    ...created,
    labels,
    outcome: finished.outcome,
    finishedAt,
    snapshot: finished.snapshot,
  };
  await db.query(
    'UPDATE executions SET finished_at = $1, outcome = $2, metadata = $3, record_json = $4 WHERE execution_id = $5',
    [finishedAt, finished.outcome, json(labels.metadata ?? {}), json(record), id],
  );
  for (const table of ['traces', 'sessions', 'turns', 'execution_blobs']) {
    await db.query(`DELETE FROM ${table} WHERE execution_id = $1`, [id]);
  }
  await db.query(
    `INSERT INTO traces (execution_id, trace_id, completeness, limitations_json, event_count, events)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [id, data.traceId, data.completeness, json(data.limitations), data.events.length, events],
  );
  for (const { sha256, blob } of blobs) {
    await db.query(
      'INSERT INTO blobs (sha256, size_bytes, media_type, bytes) VALUES ($1, $2, $3, $4) ON CONFLICT (sha256) DO NOTHING',
      [sha256, blob.bytes.length, blob.reference.mediaType, blob.bytes],
    );
    await db.query('INSERT INTO execution_blobs (execution_id, sha256) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
      id,
      sha256,
    ]);
  }
  for (const session of finished.sessions ?? []) {
    await db.query('INSERT INTO sessions (session_id, execution_id, created_at, record_json) VALUES ($1, $2, $3, $4)', [
      session.sessionId,
      id,
      session.createdAt,
      json(session),
    ]);
  }
  for (const turn of finished.turns ?? []) {
    await db.query('INSERT INTO turns (turn_id, execution_id, turn_index, record_json) VALUES ($1, $2, $3, $4)', [
      turn.turnId,
      id,
      turn.index,
      json(turn),
    ]);
  }
}
