import type { CassetteScope } from '../cassettes/CassetteScope';
import type { EvaluationResult } from '../evaluation/EvaluationResult';
import type { Redactor } from '../redaction/Redactor';
import type { ExecutionStore } from '../store/ExecutionStore';
import type { ExecutionRecord } from '../store/records';

/** What agent selections and sessions need from the kit that made them (the kit implements it). */
export interface AgentHost {
  readonly redactor: Redactor;
  readonly store: ExecutionStore;
  /** The kit results are linked to (`linkToKit`). */
  readonly linkTarget: object;
  readonly runId: string | null;
  readonly suiteName: string | null;
  readonly caseId: string | null;
  readonly attemptId: string | null;
  /** The kit's labels, under the agent's (harness, model, trial). */
  readonly labels: Partial<ExecutionRecord['labels']>;
  /** The kit's default execution deadline, when it has one. */
  readonly executionTimeoutMs: number | undefined;
  /** The running test's cassettes (`kit.cassettes`): each execution's model traffic goes through them. */
  readonly cassettes?: CassetteScope | null;
  /** Throws `KitClosed` once the kit is closed. */
  assertOpen(method: string): void;
  executionCreated(executionId: string): void;
  trackWrite(write: Promise<unknown>): void;
  /** Registers an open session so `kit.close()` closes it; the returned function unregisters it. */
  sessionOpened(session: { close(): Promise<unknown> }): () => void;
  evaluationsFor(executionId: string): EvaluationResult[];
}
