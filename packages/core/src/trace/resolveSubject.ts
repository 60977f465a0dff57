import type { TraceEntry, TraceRuntime, TraceSummary } from './TraceEntry';

/**
 * What a trace view is, for every reader of subjects (the matchers and the evaluation engine):
 * the data of a finalized view, read structurally — an object with a string `executionId`, a
 * `timeline` array and a `summary` object (contract §7). A `TraceView` instance, its JSON form,
 * or a view from another copy of `@sf-m3/core` all qualify (no `instanceof`).
 */
export interface ViewLike {
  readonly traceId: string;
  readonly executionId: string;
  readonly outcome: string;
  readonly completeness: string;
  readonly limitations: readonly string[];
  readonly runtime: TraceRuntime;
  readonly summary: TraceSummary;
  readonly timeline: readonly TraceEntry[];
  forTurn?(turnId: string): ViewLike;
}

/** Why a subject has no finalized view. */
export type UnresolvedReason = 'TraceNotFinalized' | 'TraceUnavailable';

/** What a subject resolved to. */
export type SubjectResolution =
  | {
      readonly status: 'resolved';
      readonly views: readonly ViewLike[];
      readonly executionId: string | null;
      readonly turnId: string | null;
    }
  | {
      readonly status: 'not_finalized';
      readonly reason: UnresolvedReason;
      readonly executionId: string | null;
      readonly turnId: string | null;
    }
  | { readonly status: 'unsupported' };

type Bag = Record<string | symbol, unknown>;

const isObject = (value: unknown): value is Bag => typeof value === 'object' && value !== null;
const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** True for a trace view or its JSON form (the one definition: see `ViewLike`). */
export function isViewLike(value: unknown): value is ViewLike {
  return (
    isObject(value) && Array.isArray(value.timeline) && typeof value.executionId === 'string' && isObject(value.summary)
  );
}

/** True for a `TurnResult` (an agent turn). */
export function isTurnLike(value: unknown): value is Bag & { turnId: string } {
  return isObject(value) && typeof value.turnId === 'string' && ('response' in value || 'prompt' in value);
}

function isTraceResultLike(value: unknown): value is Bag & { view(): unknown } {
  return isObject(value) && Array.isArray(value.events) && typeof value.view === 'function';
}

function isExecutionResultLike(value: unknown): value is Bag {
  return isObject(value) && isObject(value.snapshot) && Array.isArray(value.turns);
}

/** A view narrowed to one turn, through `forTurn` when the view has it. */
export function viewForTurn(view: ViewLike, turnId: string): ViewLike {
  if (typeof view.forTurn === 'function') return view.forTurn(turnId);
  return { ...view, timeline: view.timeline.filter((entry) => entry.turnId === turnId) };
}

// A getter such as `DirectClient.result` may throw before close; that means "not available yet".
function read(subject: Bag, key: string): unknown {
  try {
    return subject[key];
  } catch {
    return undefined;
  }
}

function notFinalized(reason: UnresolvedReason, executionId: string | null, turnId: string | null = null) {
  return { status: 'not_finalized', reason, executionId, turnId } as const;
}

function resolveTrace(trace: Bag & { view(): unknown }): SubjectResolution {
  const executionId = stringOrNull(trace.executionId);
  if (trace.finalized === false) return notFinalized('TraceNotFinalized', executionId);
  try {
    const view = trace.view();
    if (isViewLike(view)) return { status: 'resolved', views: [view], executionId, turnId: null };
    return notFinalized('TraceUnavailable', executionId);
  } catch (error) {
    // Only the two "no view" errors mean that; anything else is a bug and must surface.
    const code = isObject(error) ? error.code : undefined;
    if (code === 'trace_not_finalized') return notFinalized('TraceNotFinalized', executionId);
    if (code === 'trace_unavailable') return notFinalized('TraceUnavailable', executionId);
    throw error;
  }
}

function resolveExecution(result: Bag): SubjectResolution {
  const executionId = stringOrNull(result.executionId);
  const traceView = read(result, 'traceView');
  if (isViewLike(traceView)) return { status: 'resolved', views: [traceView], executionId, turnId: null };
  const trace = read(result, 'trace');
  if (isTraceResultLike(trace)) return resolveTrace(trace);
  const turnViews = (result.turns as unknown[])
    .filter(isTurnLike)
    .map((turn) => (isViewLike(turn.traceView) ? viewForTurn(turn.traceView, turn.turnId) : null));
  if (turnViews.length > 0 && turnViews.every((v) => v !== null)) {
    return { status: 'resolved', views: turnViews as ViewLike[], executionId, turnId: null };
  }
  return notFinalized('TraceUnavailable', executionId);
}

/**
 * Resolves a subject to finalized trace views (contract §7): a `TraceView` as is, a `TraceResult`
 * through `view()`, an `ExecutionResult` through `traceView`, a closed `DirectClient` or agent
 * session through `result`, a `TurnResult` through `traceView.forTurn(turnId)`.
 */
export function resolveSubject(subject: unknown, depth = 0): SubjectResolution {
  if (!isObject(subject) || depth > 3) return { status: 'unsupported' };
  if (isViewLike(subject)) {
    return { status: 'resolved', views: [subject], executionId: subject.executionId, turnId: null };
  }
  if (isTurnLike(subject)) {
    const executionId = stringOrNull(subject.executionId);
    const view = read(subject, 'traceView');
    if (isViewLike(view)) {
      return { status: 'resolved', views: [viewForTurn(view, subject.turnId)], executionId, turnId: subject.turnId };
    }
    return notFinalized('TraceNotFinalized', executionId, subject.turnId);
  }
  if (isTraceResultLike(subject)) return resolveTrace(subject);
  if (isExecutionResultLike(subject)) return resolveExecution(subject);
  // A closed client or session: `result` after close; before close only a live, partial `trace`.
  for (const key of ['result', 'finalTrace', 'trace']) {
    const inner = read(subject, key);
    if (!isObject(inner)) continue;
    const resolved = resolveSubject(inner, depth + 1);
    if (resolved.status !== 'unsupported') return resolved;
  }
  const bag: Bag = subject;
  if (typeof bag.executionId === 'string' && ('trace' in bag || 'result' in bag)) {
    return notFinalized('TraceNotFinalized', bag.executionId);
  }
  return { status: 'unsupported' };
}

/** The execution and turn a subject belongs to, when it says so (tool results, turns, results, views). */
export function subjectIds(subject: unknown): { executionId: string | null; turnId: string | null } {
  if (!isObject(subject)) return { executionId: null, turnId: null };
  const resolved = resolveSubject(subject);
  if (resolved.status !== 'unsupported' && resolved.executionId !== null) {
    return { executionId: resolved.executionId, turnId: resolved.turnId };
  }
  return { executionId: stringOrNull(read(subject, 'executionId')), turnId: stringOrNull(read(subject, 'turnId')) };
}
