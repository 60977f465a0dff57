import { resolveSubject } from '@sf-m3/core/internal';

type Bag = Record<string, unknown>;
const isObject = (value: unknown): value is Bag => typeof value === 'object' && value !== null;

/** The subjects execution matchers accept, named for usage errors. */
export const EXECUTION_SUBJECTS =
  'an ExecutionResult, a closed DirectClient or agent session, a TurnResult, a TraceResult or a TraceView';

/** What an execution-like subject says about how it ended. */
export interface ExecutionFacts {
  /** `completed | failed | timed_out | cancelled | interrupted`, or null while it runs. */
  readonly outcome: string | null;
  readonly lifecycle: string | null;
  readonly error: unknown;
  readonly durationMs: number | null;
}

function read(subject: Bag, key: string): unknown {
  try {
    return subject[key];
  } catch {
    return undefined;
  }
}

function durationFromSnapshot(snapshot: Bag): number | null {
  if (typeof snapshot.createdAt !== 'string' || typeof snapshot.finishedAt !== 'string') return null;
  const ms = Date.parse(snapshot.finishedAt) - Date.parse(snapshot.createdAt);
  return Number.isFinite(ms) ? Math.max(0, ms) : null;
}

/**
 * Reads outcome, lifecycle, error and duration from an `ExecutionResult` (its snapshot), a closed
 * client or session (its `result`), a `TurnResult`, or finalized trace views; `undefined` when the
 * subject is none of these.
 */
export function executionFacts(subject: unknown): ExecutionFacts | undefined {
  if (!isObject(subject)) return undefined;
  let base: Bag = subject;
  if (!isObject(read(base, 'snapshot'))) {
    const result = read(base, 'result');
    if (isObject(result) && isObject(read(result, 'snapshot'))) base = result;
  }
  const resolution = resolveSubject(base);
  const views = resolution.status === 'resolved' ? resolution.views : [];
  const viewDuration = views.length > 0 ? views.reduce((sum, v) => sum + v.summary.timing.durationMs, 0) : null;
  const snapshot = read(base, 'snapshot');
  if (isObject(snapshot)) {
    return {
      outcome: typeof snapshot.outcome === 'string' ? snapshot.outcome : null,
      lifecycle: typeof snapshot.lifecycle === 'string' ? snapshot.lifecycle : null,
      error: read(base, 'error'),
      durationMs: viewDuration ?? durationFromSnapshot(snapshot),
    };
  }
  if (typeof base.turnId === 'string' && typeof base.outcome === 'string') {
    return { outcome: base.outcome, lifecycle: null, error: read(base, 'error'), durationMs: viewDuration };
  }
  if (views.length > 0) {
    const outcomes = [...new Set(views.map((v) => v.outcome))];
    return {
      outcome: outcomes.length === 1 ? outcomes[0]! : outcomes.join(','),
      lifecycle: 'finished',
      error: undefined,
      durationMs: viewDuration,
    };
  }
  if (resolution.status === 'not_finalized') {
    return { outcome: null, lifecycle: null, error: undefined, durationMs: null };
  }
  return undefined;
}
