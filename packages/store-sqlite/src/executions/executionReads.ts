/**
 * Reads of stored executions and what they saved beside their trace: one execution's record,
 * a run's or attempt's executions (listed in creation order, or counted), and an execution's
 * sessions and turns. Each runs on the connection it is given (the store's reader).
 */
import { ExecutionNotFound } from '@sf-m3/core/store';
import type { ExecutionListFilter, ExecutionRecord, SessionRecord, TurnRecord } from '@sf-m3/core';
import type { SqliteConnection } from '../SqliteConnection';

/** `executions x` rows of run ?1 (or any) linked to attempt ?2 (or any), directly or through attempt_executions. */
const EXECUTION_FILTER_SQL = `(?1 IS NULL OR x.run_id = ?1)
          AND (?2 IS NULL OR x.attempt_id = ?2
               OR EXISTS (SELECT 1 FROM attempt_executions ae WHERE ae.attempt_id = ?2 AND ae.execution_id = x.execution_id))`;

/** The stored record of `executionId`; a missing one rejects with `ExecutionNotFound`. */
export async function readExecutionRecord(db: SqliteConnection, executionId: string): Promise<ExecutionRecord> {
  const row = await db.get<{ record_json: string }>('SELECT record_json FROM executions WHERE execution_id = ?', [
    executionId,
  ]);
  if (row === undefined) throw new ExecutionNotFound(executionId);
  return JSON.parse(row.record_json) as ExecutionRecord;
}

/** The executions `filter` selects, by creation time then id, one page of them when it pages. */
export async function listExecutionRecords(
  db: SqliteConnection,
  filter: ExecutionListFilter,
): Promise<ExecutionRecord[]> {
  const rows = await db.all<{ record_json: string }>(
    `SELECT record_json FROM executions x
        WHERE ${EXECUTION_FILTER_SQL}
        ORDER BY x.created_at, x.execution_id
        LIMIT ?3 OFFSET ?4`,
    [filter.runId ?? null, filter.attemptId ?? null, filter.limit ?? -1, filter.offset ?? 0],
  );
  return rows.map((r) => JSON.parse(r.record_json) as ExecutionRecord);
}

/** How many executions `filter` selects. */
export async function countExecutionRows(
  db: SqliteConnection,
  filter: { runId?: string; attemptId?: string },
): Promise<number> {
  const row = await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM executions x WHERE ${EXECUTION_FILTER_SQL}`, [
    filter.runId ?? null,
    filter.attemptId ?? null,
  ]);
  return row?.n ?? 0;
}

/** The sessions saved with execution `executionId`, by creation time then id. */
export async function listSessionRecords(db: SqliteConnection, executionId: string): Promise<SessionRecord[]> {
  const rows = await db.all<{ record_json: string }>(
    'SELECT record_json FROM sessions WHERE execution_id = ? ORDER BY created_at, session_id',
    [executionId],
  );
  return rows.map((r) => JSON.parse(r.record_json) as SessionRecord);
}

/** The turns saved with execution `executionId`, in turn order (then by id). */
export async function listTurnRecords(db: SqliteConnection, executionId: string): Promise<TurnRecord[]> {
  const rows = await db.all<{ record_json: string }>(
    'SELECT record_json FROM turns WHERE execution_id = ? ORDER BY turn_index, turn_id',
    [executionId],
  );
  return rows.map((r) => JSON.parse(r.record_json) as TurnRecord);
}
