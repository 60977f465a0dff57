// The execution view: the record, its trace view (timeline, tool calls with wire and reported
// evidence, messages, reasoning, protocol errors, processes), evaluations, sessions and turns.
import { ExecutionNotFound } from '@sf-m3/core/internal';
import type {
  EvaluationResult,
  EvidenceRef,
  ExecutionRecord,
  ExecutionStore,
  RawEvidence,
  SessionRecord,
  TraceEntry,
  TraceRuntime,
  TraceSummary,
  TurnRecord,
} from '@sf-m3/core';
import { assertionLabel, assertionText } from '../shape/assertionLabel';
import { attemptOf, executionFailure, type ExecutionFailure } from '../shape/executionFailure';
import { ViewerNotFound } from './ViewerNotFound';

/** The execution view's data; `trace` is null (with `traceError`) while no finished trace is stored. */
export interface ExecutionPage {
  execution: ExecutionRecord;
  trace: {
    outcome: string;
    completeness: string;
    limitations: readonly string[];
    /** Who ran it: the runtime kind and what the source reported (agent, session, model, usage). */
    runtime: TraceRuntime;
    summary: TraceSummary;
    timeline: readonly TraceEntry[];
  } | null;
  traceError: string | null;
  /** Why it did not complete (stored reason, operation errors, what the test around it did); null when it completed. */
  failure: ExecutionFailure | null;
  /** The test attempt it ran in, when one is linked. */
  attempt: { attemptId: string; fullName: string; outcome: string | null } | null;
  /** Each row with `assertion`: the call site (and tool and arguments when recorded) naming it, or ''. */
  evaluations: (EvaluationResult & { assertion: string })[];
  sessions: SessionRecord[];
  turns: TurnRecord[];
}

/** The most raw evidence one request returns (the viewer shows the rest as truncated). */
export const EVIDENCE_MAX_BYTES = 256 * 1024;

async function executionOf(store: ExecutionStore, executionId: string): Promise<ExecutionRecord> {
  try {
    return await store.getExecution(executionId);
  } catch (error) {
    if (error instanceof ExecutionNotFound)
      throw new ViewerNotFound(`execution ${executionId} is not in the results database`);
    throw error;
  }
}

/** Reads an execution and everything recorded with it. */
export async function executionPage(store: ExecutionStore, executionId: string, cwd?: string): Promise<ExecutionPage> {
  const execution = await executionOf(store, executionId);
  let trace: ExecutionPage['trace'] = null;
  let traceError: string | null = null;
  try {
    const view = await store.getTraceView(executionId);
    trace = {
      outcome: view.outcome,
      completeness: view.completeness,
      limitations: view.limitations,
      runtime: view.runtime,
      summary: view.summary,
      timeline: view.timeline,
    };
  } catch (error) {
    traceError = error instanceof Error ? error.message : String(error);
  }
  const [evaluations, sessions, turns, attempts] = await Promise.all([
    store.listEvaluations({ executionId }),
    store.listSessions(executionId),
    store.listTurns(executionId),
    execution.runId === null ? [] : store.listAttempts({ runId: execution.runId }),
  ]);
  const found = attemptOf(execution, attempts);
  const attempt = found && { attemptId: found.attemptId, fullName: found.fullName, outcome: found.outcome };
  const failure = executionFailure(execution, found, trace?.timeline ?? []);
  const named = evaluations.map((e) => ({ ...e, assertion: assertionText(assertionLabel(e, cwd)) }));
  return { execution, trace, traceError, failure, attempt, evaluations: named, sessions, turns };
}

/** Every evidence reference a timeline names (raw frames, captured stderr). */
export function evidenceRefsOf(timeline: readonly TraceEntry[]): EvidenceRef[] {
  const refs: EvidenceRef[] = [];
  for (const entry of timeline) {
    if (entry.kind === 'raw_message') refs.push(entry.evidenceRef);
    if (entry.kind === 'process' && entry.stderr.value?.evidenceRef) refs.push(entry.stderr.value.evidenceRef);
  }
  return refs;
}

/**
 * Reads one piece of raw evidence through the store's verifying reader (size and sha256 checked).
 * Only evidence the execution's own timeline names is served: an id is never a path or a query.
 */
export async function executionEvidence(
  store: ExecutionStore,
  executionId: string,
  evidenceId: string,
): Promise<RawEvidence> {
  await executionOf(store, executionId);
  const view = await store.getTraceView(executionId).catch(() => null);
  const ref = view === null ? undefined : evidenceRefsOf(view.timeline).find((r) => r.evidenceId === evidenceId);
  if (ref === undefined) throw new ViewerNotFound(`execution ${executionId} names no evidence ${evidenceId}`);
  return store.readRawEvidence(ref, { maxBytes: EVIDENCE_MAX_BYTES });
}
