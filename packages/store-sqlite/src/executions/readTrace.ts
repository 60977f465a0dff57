/**
 * `SQLiteExecutionStore.getTrace`: an execution's saved trace rebuilt from its `traces` header and
 * its events, checked on the way: an execution that has not finished, events that cannot be
 * read, fewer events than the header counted, or data `TraceResult` refuses each reject with
 * `TraceUnavailable` naming the execution (a missing execution with `ExecutionNotFound`).
 */
import type { TraceResult } from '@sf-m3/core';
import { savedTrace, type SavedTraceHeader } from '@sf-m3/core/store';
import { readEvents } from '../eventRows';
import type { SqliteConnection } from '../SqliteConnection';

/**
 * The saved trace of `executionId`, read on `db`. `schemaVersion` (which tables hold the events)
 * is asked for only once the header shows a saved trace; a failure there counts as unreadable.
 */
export async function readTrace(
  db: SqliteConnection,
  executionId: string,
  schemaVersion: () => Promise<number>,
): Promise<TraceResult> {
  const header = await db.get<SavedTraceHeader>(
    `SELECT t.trace_id, t.completeness, t.limitations_json, t.event_count
         FROM executions x LEFT JOIN traces t ON t.execution_id = x.execution_id WHERE x.execution_id = ?`,
    [executionId],
  );
  return savedTrace(executionId, header, async () => readEvents(db, executionId, await schemaVersion()));
}
