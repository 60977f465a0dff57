import type { ExecutionOutcome } from '../enums';
import type { ErrorInfo, ExecutionResult, TurnResult } from '../execution/ExecutionResult';
import { buildExecutionResult } from '../execution/buildExecutionResult';
import { storedSnapshot } from '../execution/storedSnapshot';
import { linkToKit } from '../ownership/kitLink';
import { surfaceSnapshotField } from '../surface/coverage/surfaceSnapshotField';
import type { TraceRecorder } from '../trace/TraceRecorder';
import type { AgentHost } from './AgentHost';
import { agentExecutionRecord, type AgentRecordIdentity } from './agentExecutionRecord';
import type { ResolvedRunOptions } from './agentOptions';

/** The fixed facts of one agent execution, for its start and its end. */
export interface AgentExecutionFacts {
  readonly host: AgentHost;
  readonly recorder: TraceRecorder;
  readonly identity: AgentRecordIdentity;
  readonly options: ResolvedRunOptions;
  readonly executionId: string;
  readonly traceId: string;
  readonly runtime: string;
  readonly caseId: string | null;
  readonly createdAt: string;
}

/** Records `execution.created` and starts saving the execution record (the returned promise). */
export function startAgentExecution(f: AgentExecutionFacts): Promise<void> {
  const { host } = f;
  const servers = f.options.servers.map((s) => host.redactor.redactJson(s.describe()));
  f.recorder.record('execution.created', {
    phase: 'startup',
    origin: 'normalized',
    direction: 'internal',
    payload: {
      traceId: f.traceId,
      runtime: f.runtime,
      runId: host.runId,
      suiteName: host.suiteName,
      caseId: f.caseId,
      servers,
    },
  });
  host.executionCreated(f.executionId);
  return host.store.createExecution(
    agentExecutionRecord({
      host,
      identity: f.identity,
      executionId: f.executionId,
      caseId: f.caseId,
      timeoutMs: f.options.timeoutMs,
      createdAt: f.createdAt,
      servers,
      requiredEvaluators: f.options.requiredEvaluators,
    }),
  );
}

/**
 * Finishes the trace and builds the result; `save()` then writes the finished execution to the
 * store (only when its record was created) and tracks the write with the kit.
 */
export function finishAgentExecution(
  f: AgentExecutionFacts,
  outcome: ExecutionOutcome,
  info: ErrorInfo | undefined,
  /** The session's own list: a turn that ends after the finish (cancelled mid-turn) still joins it. */
  turns: TurnResult[],
  created: Promise<void> | undefined,
  /** `snapshot.metadata`: how the execution ran (`cassette`, contract §24), when there is something to say. */
  metadata?: Readonly<Record<string, string>>,
): { result: ExecutionResult; save: () => Promise<void> } {
  const { host } = f;
  const trace = linkToKit(f.recorder.finish(outcome, info), host.linkTarget);
  const finishedAt = new Date().toISOString();
  const result = buildExecutionResult({
    trace,
    outcome,
    createdAt: f.createdAt,
    finishedAt,
    runId: host.runId,
    suiteName: host.suiteName,
    caseId: f.caseId,
    turns,
    ...(info !== undefined && { error: info }),
    ...(metadata !== undefined && { metadata }),
    evaluations: () => host.evaluationsFor(f.executionId),
    kit: host.linkTarget,
  });
  const save = async (): Promise<void> => {
    const ok = await created?.then(
      () => true,
      () => false,
    );
    if (ok !== true) return;
    const write = host.store.finishExecution({
      executionId: f.executionId,
      outcome,
      finishedAt,
      snapshot: { ...storedSnapshot(result), ...surfaceSnapshotField(trace) },
      trace,
      evidence: f.recorder.evidence,
    });
    host.trackWrite(write);
    await write;
  };
  return { result, save };
}
