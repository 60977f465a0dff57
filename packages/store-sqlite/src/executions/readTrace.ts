/**
 * `SQLiteExecutionStore.getTrace`: an execution's saved trace rebuilt from its `traces` header and
 * its events, checked on the way: an execution that has not finished, events that cannot be
 * read, fewer events than the header counted, or data `TraceResult` refuses each reject with
 * `TraceUnavailable` naming the execution (a missing execution with `ExecutionNotFound`).
 */
import { ExecutionNotFound, TraceResult, TraceUnavailable, type TraceEvent } from '@sf-m3/core';
import { readEvents } from '../eventRows';
import type { SqliteConnection } from '../SqliteConnection';

/** The columns of an execution's `traces` row; `trace_id` is null when it has none (not finished). */
interface TraceHeader {
  trace_id: string | null;
  completeness: string;
  limitations_json: string;
  event_count: number;
}

/**
 * The saved trace of `executionId`, read on `db`. `schemaVersion` (which tables hold the events)
 * is asked for only once the header shows a saved trace; a failure there counts as unreadable.
 */
export async function readTrace(
  db: SqliteConnection,
  executionId: string,
  schemaVersion: () => Promise<number>,
): Promise<TraceResult> {
  const header = await db.get<TraceHeader>(
    `SELECT t.trace_id, t.completeness, t.limitations_json, t.event_count
         FROM executions x LEFT JOIN traces t ON t.execution_id = x.execution_id WHERE x.execution_id = ?`,
    [executionId],
  );
  if (header === undefined) throw new ExecutionNotFound(executionId);
  if (header.trace_id === null) {
    throw new TraceUnavailable(`execution ${executionId} has no saved trace: it has not finished yet`, {
      executionId,
    });
  }
  let events: TraceEvent[];
  try {
    events = await readEvents(db, executionId, await schemaVersion());
  } catch (error) {
    throw new TraceUnavailable(`the saved trace of ${executionId} is unreadable: ${(error as Error).message}`, {
      executionId,
    });
  }
  if (events.length !== header.event_count) {
    throw new TraceUnavailable(
      `the saved trace of ${executionId} is incomplete: ${events.length} of ${header.event_count} events`,
      {
        executionId,
      },
    );
  }
  try {
    return TraceResult.fromJSON({
      traceId: header.trace_id,
      executionId,
      completeness: header.completeness as TraceResult['completeness'],
      limitations: JSON.parse(header.limitations_json) as string[],
      events,
    });
  } catch (error) {
    throw new TraceUnavailable(`the saved trace of ${executionId} is malformed: ${(error as Error).message}`, {
      executionId,
    });
  }
}
