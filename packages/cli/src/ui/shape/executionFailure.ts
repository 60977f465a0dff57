// Why an execution did not complete, for the viewer and the HTML report: the stored reason (the
// snapshot's `error`, or for records saved before it was stored, the `execution.finished` event's),
// every exception that escaped a client operation, and what that means for the test around it —
// "the test failed" is a different fact from "an operation inside a passing test raised, as the
// test expected" (contract §4 marks the execution `failed` either way; the verdict is the attempt's).
import type { AttemptRecord, ExecutionRecord, TraceEntry } from '@sf-m3/core';

/** A stored error: its code and (redacted) message. */
export interface StoredError {
  readonly code: string;
  readonly message: string;
}

/** What the test around a failed execution did. */
export type FailureContext =
  /** The test passed: an operation raised inside it and the test caught or expected it. */
  | 'raised_in_passing_test'
  /** The test passed, though the execution timed out, was cancelled or was interrupted. */
  | 'ended_in_passing_test'
  /** The test failed (or was interrupted): see its failure message. */
  | 'test_failed'
  /** No test attempt is linked (a script, or a kit outside Jest). */
  | 'no_test';

/** Why an execution did not complete. */
export interface ExecutionFailure {
  readonly outcome: string;
  /** The decisive error; null only for records saved without one (shown as such). */
  readonly reason: StoredError | null;
  /** Every exception that escaped a client operation (at most 20 stored). */
  readonly operationErrors: readonly StoredError[];
  /** How many operation errors there were in all. */
  readonly operationErrorCount: number;
  readonly context: FailureContext;
  /** One sentence for the viewer saying what the context means. */
  readonly note: string;
}

/** The attempt an execution belongs to, among a run's attempts (by id, or by its execution list). */
export function attemptOf(execution: ExecutionRecord, attempts: readonly AttemptRecord[]): AttemptRecord | null {
  return (
    attempts.find((a) => a.attemptId === execution.attemptId) ??
    attempts.find((a) => a.executionIds.includes(execution.executionId)) ??
    null
  );
}

/** Why `execution` did not complete, or null when it completed (or has not finished). */
export function executionFailure(
  execution: ExecutionRecord,
  attempt: Pick<AttemptRecord, 'outcome'> | null,
  timeline: readonly TraceEntry[] = [],
): ExecutionFailure | null {
  if (execution.outcome === null || execution.outcome === 'completed') return null;
  const snapshot = execution.snapshot as Record<string, unknown>;
  const operationErrors = Array.isArray(snapshot.operationErrors)
    ? snapshot.operationErrors.map(storedError).filter((e): e is StoredError => e !== null)
    : [];
  const operationErrorCount =
    typeof snapshot.operationErrorCount === 'number' ? snapshot.operationErrorCount : operationErrors.length;
  const reason = storedError(snapshot.error) ?? finishedEventError(timeline);
  const context: FailureContext =
    attempt === null || attempt.outcome === null
      ? 'no_test'
      : attempt.outcome !== 'passed'
        ? 'test_failed'
        : execution.outcome === 'failed'
          ? 'raised_in_passing_test'
          : 'ended_in_passing_test';
  return {
    outcome: execution.outcome,
    reason,
    operationErrors,
    operationErrorCount,
    context,
    note: noteFor(context, execution.outcome, operationErrorCount),
  };
}

function noteFor(context: FailureContext, outcome: string, operationErrorCount: number): string {
  const raised =
    operationErrorCount === 0
      ? 'an operation raised'
      : `${operationErrorCount} operation${operationErrorCount === 1 ? '' : 's'} raised`;
  switch (context) {
    case 'raised_in_passing_test':
      return (
        `The test passed: ${raised} inside it, as the test expected (for example ` +
        'await expect(client.listAllResources()).rejects…). An exception escaping an operation marks ' +
        'the execution failed; the test’s verdict is its attempt’s.'
      );
    case 'ended_in_passing_test':
      return `The test passed, though this execution ended ${outcome}.`;
    case 'test_failed':
      return `The test failed: this execution ended ${outcome}; the test’s failure message is on the run page.`;
    default:
      return `This execution ended ${outcome}.`;
  }
}

function storedError(value: unknown): StoredError | null {
  if (typeof value !== 'object' || value === null) return null;
  const { code, message } = value as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string' ? { code, message } : null;
}

/** The error of the `execution.finished` lifecycle entry (records saved before snapshots held it). */
function finishedEventError(timeline: readonly TraceEntry[]): StoredError | null {
  for (let i = timeline.length - 1; i >= 0; i--) {
    const entry = timeline[i]!;
    if (entry.kind === 'lifecycle' && entry.event === 'execution.finished') return storedError(entry.data.error);
  }
  return null;
}

/** The one-line reason an execution list shows: `code: message`, or null when it completed. */
export function failureLine(failure: ExecutionFailure | null): string | null {
  if (failure === null) return null;
  if (failure.reason === null) return 'no reason was stored';
  return `${failure.reason.code}: ${failure.reason.message}`;
}
