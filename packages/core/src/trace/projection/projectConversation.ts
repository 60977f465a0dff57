import type { JsonObject } from '../../json';
import { EventKind, type TraceEvent } from '../Event';
import { notEmitted, observation, observed, unavailable, type Observation } from '../Observation';
import type {
  ContentBlock,
  EntryStatus,
  EvaluationEntry,
  LifecycleEntry,
  MessageEntry,
  ReasoningEntry,
  UsageEntry,
  UsageValue,
} from '../TraceEntry';
import { entryBase, isJsonObject, joinedText, stringField, type ProjectionContext } from './ProjectionContext';

/** Event kinds that become lifecycle entries. */
export const LIFECYCLE_KINDS: ReadonlySet<string> = new Set([
  EventKind.EXECUTION_CREATED,
  EventKind.EXECUTION_STATE_CHANGED,
  EventKind.EXECUTION_FINISHED,
  EventKind.SESSION_CREATED,
  EventKind.SESSION_STATE_CHANGED,
  EventKind.TURN_CREATED,
  EventKind.TURN_STATE_CHANGED,
  EventKind.CLEANUP_STARTED,
  EventKind.CLEANUP_FINISHED,
]);

const OUTCOME_STATUS: Record<string, EntryStatus> = {
  completed: 'completed',
  failed: 'failed',
  timed_out: 'timed_out',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
};

function phaseOf(event: TraceEvent): string {
  switch (event.kind) {
    case EventKind.EXECUTION_CREATED:
    case EventKind.SESSION_CREATED:
    case EventKind.TURN_CREATED:
      return 'created';
    case EventKind.EXECUTION_FINISHED:
      return 'finished';
    case EventKind.CLEANUP_STARTED:
      return 'cleanup_started';
    case EventKind.CLEANUP_FINISHED:
      return 'cleanup_finished';
    default:
      return (
        stringField(event.payload, 'lifecycle') ?? (stringField(event.payload, 'outcome') ? 'finished' : 'changed')
      );
  }
}

/** A lifecycle event of the execution, a session or a turn. Outcomes set the entry status. */
export function projectLifecycle(context: ProjectionContext, event: TraceEvent): LifecycleEntry {
  const outcome = stringField(event.payload, 'outcome');
  const status = (outcome !== undefined ? OUTCOME_STATUS[outcome] : undefined) ?? 'completed';
  const base = entryBase(context, 'lifecycle', [event], status);
  // turn.created names its turn in the payload; the entry belongs to that turn.
  const turnId = stringField(event.payload, 'turnId');
  const sessionId = stringField(event.payload, 'sessionId');
  return {
    ...base,
    ...(base.turnId === undefined && turnId !== undefined && event.kind.startsWith('turn.') ? { turnId } : {}),
    ...(base.sessionId === undefined && sessionId !== undefined && event.kind.startsWith('session.')
      ? { sessionId }
      : {}),
    phase: phaseOf(event),
    event: event.kind,
    data: event.payload,
  };
}

const ROLES: ReadonlySet<string> = new Set(['user', 'assistant', 'system', 'tool']);

function contentOf(value: unknown): ContentBlock[] | undefined {
  if (!Array.isArray(value) || !value.every((b) => isJsonObject(b) && typeof b.type === 'string')) return undefined;
  return value as ContentBlock[];
}

/** `agent.message` / `assistant.content` as a message entry. */
export function projectMessage(context: ProjectionContext, event: TraceEvent): MessageEntry {
  const role = stringField(event.payload, 'role');
  const content = contentOf(event.payload.content);
  const stopReason = event.payload.stopReason;
  return {
    ...entryBase(context, 'message', [event], content ? 'completed' : 'unavailable'),
    role: role !== undefined && ROLES.has(role) ? (role as MessageEntry['role']) : 'assistant',
    content: content ?? [],
    text: joinedText(content ?? []),
    stopReason: typeof stopReason === 'string' ? observed(stopReason) : notEmitted(),
  };
}

/** A `reasoning` event: visible content is observed; hidden or encrypted reasoning says so. */
export function projectReasoning(context: ProjectionContext, event: TraceEvent): ReasoningEntry {
  const visibility = stringField(event.payload, 'visibility');
  let content: Observation<ContentBlock[]>;
  if (visibility === 'encrypted') content = observation<ContentBlock[]>('encrypted', null, 'provider_encrypted');
  else if (visibility === 'provider_hidden')
    content = observation<ContentBlock[]>('provider_hidden', null, 'provider_hidden');
  else if (visibility === 'unavailable') content = notEmitted();
  else {
    const blocks = contentOf(event.payload.content);
    content = blocks ? observed(blocks) : unavailable('malformed_source');
  }
  return { ...entryBase(context, 'reasoning', [event], 'completed'), content };
}

const USAGE_KEYS = ['inputTokens', 'outputTokens', 'totalTokens', 'reasoningTokens', 'cost'] as const;

/** A usage payload as a `UsageValue`, or unavailable when a count is not a number or null. */
export function usageOf(payload: JsonObject): Observation<UsageValue> {
  const value: Record<string, number | string | null> = {};
  for (const key of USAGE_KEYS) {
    const n = payload[key];
    if (n !== undefined && n !== null && (typeof n !== 'number' || !Number.isFinite(n)))
      return unavailable('malformed_source');
    value[key] = typeof n === 'number' ? n : null;
  }
  const currency = payload.currency;
  if (currency !== undefined && currency !== null && typeof currency !== 'string')
    return unavailable('malformed_source');
  value.currency = currency ?? null;
  return observed(value as unknown as UsageValue);
}

/** A `usage` event as a usage entry. */
export function projectUsage(context: ProjectionContext, event: TraceEvent): UsageEntry {
  const usage = usageOf(event.payload);
  return { ...entryBase(context, 'usage', [event], usage.state === 'observed' ? 'completed' : 'unavailable'), usage };
}

/** An `evaluation.recorded` event as an evaluation entry. */
export function projectEvaluation(context: ProjectionContext, event: TraceEvent): EvaluationEntry {
  return {
    ...entryBase(context, 'evaluation', [event], 'completed'),
    evaluator: stringField(event.payload, 'evaluator') ?? '',
    evaluationStatus: stringField(event.payload, 'status') ?? '',
    evaluationId: stringField(event.payload, 'evaluationId') ?? '',
  };
}
