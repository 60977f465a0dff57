import { ExecutionOutcome, RuntimeKind } from '../enums';
import { newId } from '../ids';
import type { JsonObject } from '../json';
import { Redactor } from '../redaction/Redactor';
import type { ExecutionCreatedPayload } from '../trace/payloads';
import { TraceRecorder } from '../trace/TraceRecorder';
import type { ExecutionStore } from './ExecutionStore';
import type { AttemptRecord, ExecutionRecord } from './records';

/** What `interruptUnfinished` closed. */
export interface InterruptedWork {
  /** Executions of the run that had no outcome and are now `interrupted`. */
  readonly executionIds: string[];
  /** Attempts of the run that had no outcome and are now `failed`. */
  readonly attemptIds: string[];
}

/** Why the run's unfinished work stopped; `testPath` is the attempt's file, `null` for an execution without one. */
export type InterruptionReason = (testPath: string | null) => string;

const RUNTIMES: ReadonlySet<string> = new Set(Object.values(RuntimeKind));

/**
 * Closes what a run left running when its process died (a killed worker, a signal, a crash):
 * every execution without an outcome is finished `interrupted` with a trace that says so (what it
 * recorded in memory died with the process), and every attempt without an outcome is saved
 * `failed` with the reason as its failure message and the executions it ran. Call it only once
 * nothing of the run can still be writing (after Jest's workers ended).
 */
export async function interruptUnfinished(
  store: ExecutionStore,
  runId: string,
  reason: InterruptionReason,
  now: () => Date = () => new Date(),
): Promise<InterruptedWork> {
  const executions = await store.listExecutions({ runId });
  const attempts = await store.listAttempts({ runId });
  const pathOfAttempt = new Map(attempts.map((a) => [a.attemptId, a.testPath]));
  const executionIds: string[] = [];
  for (const execution of executions) {
    if (execution.outcome !== null) continue;
    const testPath = execution.attemptId === null ? null : (pathOfAttempt.get(execution.attemptId) ?? null);
    await finishInterrupted(store, execution, reason(testPath), now().toISOString());
    executionIds.push(execution.executionId);
  }
  const attemptIds: string[] = [];
  for (const attempt of attempts) {
    if (attempt.outcome !== null) continue;
    const ran = executions.filter((e) => e.attemptId === attempt.attemptId).map((e) => e.executionId);
    await store.saveAttempt(interruptedAttempt(attempt, reason(attempt.testPath), ran, now()));
    attemptIds.push(attempt.attemptId);
  }
  return { executionIds, attemptIds };
}

function interruptedAttempt(attempt: AttemptRecord, message: string, ran: string[], at: Date): AttemptRecord {
  const started = Date.parse(attempt.startedAt);
  return {
    ...attempt,
    outcome: 'failed',
    durationMs: Number.isFinite(started) ? Math.max(0, at.getTime() - started) : null,
    failureMessage: message,
    executionIds: [...new Set([...attempt.executionIds, ...ran])],
    finishedAt: at.toISOString(),
  };
}

/** Writes the terminal record of one execution that died unfinished. */
async function finishInterrupted(
  store: ExecutionStore,
  execution: ExecutionRecord,
  message: string,
  finishedAt: string,
): Promise<void> {
  const traceId = newId('trace');
  const recorder = new TraceRecorder({ executionId: execution.executionId, redactor: new Redactor(), traceId });
  const created: ExecutionCreatedPayload = {
    traceId,
    runtime: runtimeOf(execution),
    runId: execution.runId,
    suiteName: execution.suiteName,
    caseId: execution.caseId,
    servers: execution.servers.map((server) => ({ ...server })),
  };
  recorder.record('execution.created', {
    phase: 'startup',
    origin: 'normalized',
    direction: 'internal',
    payload: created,
  });
  recorder.record('diagnostic', {
    origin: 'normalized',
    direction: 'internal',
    payload: { code: 'execution_interrupted', message },
  });
  const error = { code: 'execution_interrupted', message, details: {} };
  const trace = recorder.finish(ExecutionOutcome.INTERRUPTED, error);
  const snapshot: JsonObject = {
    lifecycle: 'finished',
    outcome: ExecutionOutcome.INTERRUPTED,
    createdAt: execution.createdAt,
    finishedAt,
    runId: execution.runId,
    suiteName: execution.suiteName,
    caseId: execution.caseId,
    error,
  };
  await store.finishExecution({
    executionId: execution.executionId,
    outcome: ExecutionOutcome.INTERRUPTED,
    finishedAt,
    snapshot,
    trace,
    evidence: [],
  });
}

function runtimeOf(execution: ExecutionRecord): RuntimeKind {
  if (execution.kind === 'direct') return RuntimeKind.DIRECT;
  const harness = execution.labels.harness;
  return typeof harness === 'string' && RUNTIMES.has(harness) ? (harness as RuntimeKind) : RuntimeKind.ACP;
}
