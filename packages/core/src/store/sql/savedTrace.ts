import { ExecutionNotFound, TraceUnavailable } from '../../errors/M3Error';
import type { TraceEvent } from '../../trace/Event';
import { TraceResult } from '../../trace/TraceResult';

/** The columns of an execution's `traces` row in both SQL stores; `trace_id` is null before it finished. */
export interface SavedTraceHeader {
  readonly trace_id: string | null;
  readonly completeness: string;
  readonly limitations_json: string;
  readonly event_count: number;
}

/**
 * The saved trace of `executionId` rebuilt from its `traces` header (`undefined` when there is no
 * such execution) and the events `readEvents` reads back (asked for only once the header shows a
 * saved trace). A missing execution rejects with `ExecutionNotFound`; one that has not finished,
 * events that cannot be read, fewer (or more) events than the header counted, or data
 * `TraceResult` refuses reject with `TraceUnavailable` naming the execution.
 */
export async function savedTrace(
  executionId: string,
  header: SavedTraceHeader | undefined,
  readEvents: () => Promise<TraceEvent[]> | TraceEvent[],
): Promise<TraceResult> {
  if (header === undefined) throw new ExecutionNotFound(executionId);
  if (header.trace_id === null) throw traceNotFinished(executionId);
  let events: TraceEvent[];
  try {
    events = await readEvents();
  } catch (error) {
    throw new TraceUnavailable(`the saved trace of ${executionId} is unreadable: ${(error as Error).message}`, {
      executionId,
    });
  }
  if (events.length !== header.event_count) {
    throw new TraceUnavailable(
      `the saved trace of ${executionId} is incomplete: ${events.length} of ${header.event_count} events`,
      { executionId },
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

/** The error of a trace asked for before its execution finished. */
function traceNotFinished(executionId: string): TraceUnavailable {
  return new TraceUnavailable(`execution ${executionId} has no saved trace: it has not finished yet`, {
    executionId,
  });
}
