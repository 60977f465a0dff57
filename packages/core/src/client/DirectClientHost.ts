import type { EvaluationResult } from '../evaluation/EvaluationResult';
import type { Redactor } from '../redaction/Redactor';
import type { ExecutionStore } from '../store/ExecutionStore';
import type { ExecutionRecord } from '../store/records';

/** The run, suite and case an execution belongs to, plus the labels its evaluations inherit. */
export interface ExecutionContext {
  readonly runId: string | null;
  readonly suiteName: string | null;
  readonly caseId: string | null;
  readonly attemptId: string | null;
  /** Extra labels (harness, model, trial, matrix, metadata) for every evaluation of the execution. */
  readonly labels: Partial<ExecutionRecord['labels']>;
  /** Evaluators every execution of the spec must produce. */
  readonly requiredEvaluators: string[];
  /** Redacted description of what is being run (stored on the execution record). */
  readonly spec: ExecutionRecord['spec'];
}

/**
 * What a direct client needs from the kit that made it. The kit implements it; keeping it an
 * interface lets the client be tested and reused (matrix cells, specs) without a circular import.
 */
export interface DirectClientHost {
  readonly redactor: Redactor;
  readonly store: ExecutionStore;
  /** The kit the client and its results are linked to (`linkToKit`). */
  readonly linkTarget: object;
  /** Called when the client creates its execution (before the transport opens). */
  executionCreated(executionId: string): void;
  /** The kit awaits `write` in `close()` so no store write is lost. */
  trackWrite(write: Promise<unknown>): void;
  /** Called once the client is closed and its execution finished (or it never connected). */
  clientClosed(client: object): void;
  /** Evaluations saved so far for an execution (for `ExecutionResult.evaluations`). */
  evaluationsFor(executionId: string): EvaluationResult[];
}
