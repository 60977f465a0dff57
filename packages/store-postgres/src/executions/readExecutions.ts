/**
 * Reads of executions and what a finished execution saved with it (trace, sessions, turns): each
 * one query on the pool, returning the records as they were written.
 */
import { inflateRawSync } from 'node:zlib';
import type { ExecutionRecord, SessionRecord, TraceEvent, TraceResult, TurnRecord } from '@sf-m3/core';
import { savedTrace, type SavedTraceHeader, ExecutionNotFound } from '@sf-m3/core/store';
import type { Pool } from 'pg';

/** Executions of run `$1` and/or attempt `$2` (its own attempt id or the attempt's linked list). */
const EXECUTION_FILTER = `($1::text IS NULL OR x.run_id = $1)
  AND ($2::text IS NULL OR x.attempt_id = $2
       OR EXISTS (SELECT 1 FROM attempt_executions ae WHERE ae.attempt_id = $2 AND ae.execution_id = x.execution_id))`;

/** Which executions to list: of a run and/or an attempt, and which page of them. */
export interface ExecutionFilter {
  readonly runId?: string;
  readonly attemptId?: string;
  readonly limit?: number;
  readonly offset?: number;
}

/** The execution `executionId`; `ExecutionNotFound` when there is none. */
export async function getExecution(pool: Pool, executionId: string): Promise<ExecutionRecord> {
  const { rows } = await pool.query<{ record_json: string }>(
    'SELECT record_json FROM executions WHERE execution_id = $1',
    [executionId],
  );
  if (rows.length === 0) throw new ExecutionNotFound(executionId);
  return JSON.parse(rows[0]!.record_json) as ExecutionRecord;
}

/** The filtered executions ordered by creation; `limit`/`offset` page through them. */
export async function listExecutions(pool: Pool, filter: ExecutionFilter): Promise<ExecutionRecord[]> {
  const { rows } = await pool.query<{ record_json: string }>(
    `SELECT record_json FROM executions x WHERE ${EXECUTION_FILTER}
      ORDER BY x.created_at, x.execution_id LIMIT $3 OFFSET $4`,
    [filter.runId ?? null, filter.attemptId ?? null, filter.limit ?? null, filter.offset ?? 0],
  );
  return rows.map((r) => JSON.parse(r.record_json) as ExecutionRecord);
}

/** How many executions `listExecutions` would list without paging. */
export async function countExecutions(pool: Pool, filter: ExecutionFilter): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(`SELECT COUNT(*) AS n FROM executions x WHERE ${EXECUTION_FILTER}`, [
    filter.runId ?? null,
    filter.attemptId ?? null,
  ]);
  return Number(rows[0]!.n);
}

interface TraceRow extends SavedTraceHeader {
  events: Buffer | null;
}

/**
 * The saved trace of execution `executionId`, its events inflated from the one deflated JSON array
 * `writeFinishedExecution` stored. `ExecutionNotFound` when there is no such execution;
 * `TraceUnavailable` when it has not finished yet or its saved trace does not decode whole.
 */
export async function readTrace(pool: Pool, executionId: string): Promise<TraceResult> {
  const { rows } = await pool.query<TraceRow>(
    `SELECT t.trace_id, t.completeness, t.limitations_json, t.event_count, t.events
       FROM executions x LEFT JOIN traces t ON t.execution_id = x.execution_id WHERE x.execution_id = $1`,
    [executionId],
  );
  const header = rows[0];
  // A header without events is a trace that was never written whole: not finished.
  const saved = header?.events === null ? { ...header, trace_id: null } : header;
  return savedTrace(
    executionId,
    saved,
    () => JSON.parse(inflateRawSync(header!.events!).toString('utf8')) as TraceEvent[],
  );
}

/** The sessions saved with execution `executionId` (the caller checks that it exists). */
export async function sessionsOfExecution(pool: Pool, executionId: string): Promise<SessionRecord[]> {
  const { rows } = await pool.query<{ record_json: string }>(
    'SELECT record_json FROM sessions WHERE execution_id = $1 ORDER BY created_at, session_id',
    [executionId],
  );
  return rows.map((r) => JSON.parse(r.record_json) as SessionRecord);
}

/** The turns saved with execution `executionId`, in turn order (the caller checks that it exists). */
export async function turnsOfExecution(pool: Pool, executionId: string): Promise<TurnRecord[]> {
  const { rows } = await pool.query<{ record_json: string }>(
    'SELECT record_json FROM turns WHERE execution_id = $1 ORDER BY turn_index, turn_id',
    [executionId],
  );
  return rows.map((r) => JSON.parse(r.record_json) as TurnRecord);
}
