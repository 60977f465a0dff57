import type { ActivityHealth } from '../../enums';
import { EventKind, type TraceEvent } from '../Event';
import { notEmitted, unsupported, type Observation } from '../Observation';
import type { TraceEntry, TraceSummary, UsageEntry, UsageValue } from '../TraceEntry';

/** Activity health from tool-call statuses: failed = anything but success (isError, error, no answer). */
export function activityHealthOf(statuses: readonly string[]): ActivityHealth {
  if (statuses.length === 0) return 'no_calls';
  const succeeded = statuses.filter((s) => s === 'success').length;
  if (succeeded === statuses.length) return 'all_succeeded';
  return succeeded === 0 ? 'all_failed' : 'mixed';
}

/** The latest usage report; a direct trace has none to give (no model runs in it). */
export function summaryUsage(timeline: readonly TraceEntry[], runtimeKind: string): Observation<UsageValue> {
  const usages = timeline.filter((e): e is UsageEntry => e.kind === 'usage');
  const latest = usages.at(-1);
  if (latest) return latest.usage;
  if (runtimeKind === 'direct') return unsupported('transport_not_applicable');
  if (runtimeKind === 'acp') return unsupported('harness_unsupported');
  return notEmitted();
}

/** Whole-trace counts, timing and health; the same in every filtered view. */
export function summarize(
  events: readonly TraceEvent[],
  timeline: readonly TraceEntry[],
  runtimeKind: string,
): TraceSummary {
  const first = events[0]!;
  const last = events.at(-1)!;
  const finished = last.kind === EventKind.EXECUTION_FINISHED;
  const toolStatuses = timeline.flatMap((e) => (e.kind === 'tool_call' ? [e.status] : []));
  const turnIds = new Set<string>();
  for (const event of events) {
    if (event.kind === EventKind.TURN_CREATED) {
      const id = event.payload.turnId;
      turnIds.add(typeof id === 'string' ? id : (event.turnId ?? event.eventId));
    }
  }
  const succeeded = toolStatuses.filter((s) => s === 'success').length;
  return {
    timing: {
      startedAt: first.timestamp,
      finishedAt: finished ? last.timestamp : null,
      durationMs: Math.max(0, last.offsetMs - first.offsetMs),
    },
    usage: summaryUsage(timeline, runtimeKind),
    turnCount: turnIds.size,
    messageCount: timeline.filter((e) => e.kind === 'message').length,
    toolCallCount: toolStatuses.length,
    successfulToolCallCount: succeeded,
    failedToolCallCount: toolStatuses.length - succeeded,
    protocolErrorCount: timeline.filter((e) => e.status === 'protocol_error').length,
    activityHealth: activityHealthOf(toolStatuses),
  };
}
