import { ModelValidationError } from '../errors/M3Error';
import type { ExecutionStore } from '../store/ExecutionStore';
import { resolveSubject, type SubjectResolution } from '../trace/resolveSubject';
import type { TraceViewData } from '../trace/TraceEntry';
import { TraceView } from '../trace/TraceView';

/** A non-empty string property of a subject, or null. */
export function ownString(value: unknown, key: string): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = (value as Record<string, unknown>)[key];
  return typeof v === 'string' && v.length > 0 ? v : null;
}

/**
 * The execution or turn id of an evaluation: the option when given (it must agree with the
 * subject's own), `null` when the option is explicitly null, else the subject's.
 */
export function pickId(
  kind: 'execution' | 'turn',
  explicit: string | null | undefined,
  fromSubject: string | null,
): string | null {
  if (explicit !== undefined && explicit !== null) {
    if (fromSubject !== null && fromSubject !== explicit) {
      throw new ModelValidationError(
        `evaluation ${kind} IDs do not match: the option says ${explicit} but the subject belongs to ${fromSubject}`,
        { kind },
      );
    }
    return explicit;
  }
  return explicit === null ? null : fromSubject;
}

/**
 * The one finalized view of `value` as a `TraceView` (a subject resolves as the matchers resolve
 * it: `resolveSubject`, one definition of a trace view); undefined when it has none, several, or
 * is not finished: the callback then gets no trace rather than a partial one.
 */
function viewOf(value: unknown): TraceView | undefined {
  let resolved: SubjectResolution;
  try {
    resolved = resolveSubject(value);
  } catch {
    return undefined;
  }
  if (resolved.status !== 'resolved' || resolved.views.length !== 1) return undefined;
  const view = resolved.views[0]!;
  if (view instanceof TraceView) return view;
  try {
    // A JSON form or a view of another copy of core: evaluators are given the class's helpers.
    return TraceView.fromData(view as unknown as TraceViewData);
  } catch {
    return undefined;
  }
}

/**
 * The trace an evaluator sees: the `trace` option, else the subject's own (a view, a trace, or an
 * `ExecutionResult`'s `traceView`), else the store's view of the execution, else none.
 */
export async function resolveTraceView(
  store: ExecutionStore,
  subject: unknown,
  given: unknown,
  executionId: string | null,
): Promise<TraceView | undefined> {
  const own =
    viewOf(given) ?? viewOf(subject) ?? viewOf((subject as { traceView?: unknown } | null | undefined)?.traceView);
  if (own || !executionId) return own;
  try {
    return await store.getTraceView(executionId);
  } catch {
    return undefined; // unfinished or unknown execution: evaluate without a trace
  }
}
