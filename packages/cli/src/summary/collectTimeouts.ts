// The executions of a run that ended `timed_out`, and where each one was when its deadline passed:
// the run's executions are listed once, and only the timed-out ones have their trace view read for
// the deadline's `diagnostic` entry (stage, operation, elapsed and timeout ms).
import type { AttemptRecord, DiagnosticEntry, ExecutionRecord, Redactor } from '@sf-m3/core';
import type { SummaryStore } from './collectRunFacts';
import { failureHeadline } from './failureText';
import type { TimedOutExecution } from './RunSummary';

/**
 * Diagnostic codes an execution deadline records: `execution_timeout` (agent executions, from
 * `AgentSession`) and `deadline_exceeded` (direct executions, from `runDirectSpec`).
 */
export const DEADLINE_DIAGNOSTIC_CODES: readonly string[] = ['execution_timeout', 'deadline_exceeded'];

/** Trace views read at once; a run where everything timed out should not hold every trace in memory. */
const TRACE_READS_AT_ONCE = 8;

/**
 * The diagnostic that explains a timeout: the last deadline diagnostic, else the last one that names
 * a timeout (a single operation's `operation_timeout`), else none.
 */
export function deadlineDiagnostic(diagnostics: readonly DiagnosticEntry[]): DiagnosticEntry | null {
  const deadline = diagnostics.filter((d) => DEADLINE_DIAGNOSTIC_CODES.includes(d.code));
  if (deadline.length > 0) return deadline[deadline.length - 1]!;
  const timeouts = diagnostics.filter((d) => d.timeoutMs !== undefined);
  return timeouts.length > 0 ? timeouts[timeouts.length - 1]! : null;
}

async function readDiagnostic(store: SummaryStore, executionId: string): Promise<DiagnosticEntry | null> {
  try {
    return deadlineDiagnostic((await store.getTraceView(executionId)).diagnostics);
  } catch {
    // A trace that was never finalized (a killed worker) still lists its execution, without a place.
    return null;
  }
}

function timedOutRow(
  execution: ExecutionRecord,
  attempt: AttemptRecord | undefined,
  diagnostic: DiagnosticEntry | null,
  redactor: Redactor,
): TimedOutExecution {
  const agent = execution.kind === 'agent';
  const text = (value: string | undefined): string | null => (value === undefined ? null : redactor.redactText(value));
  return {
    executionId: execution.executionId,
    kind: execution.kind,
    testName: attempt === undefined ? null : redactor.redactText(attempt.fullName),
    caseId: execution.caseId,
    server: execution.labels.server,
    harness: agent ? execution.labels.harness : null,
    model: agent ? execution.labels.model : null,
    trial: agent ? execution.labels.trial : null,
    code: diagnostic?.code ?? null,
    stage: text(diagnostic?.stage),
    operation: text(diagnostic?.operation),
    elapsedMs: diagnostic?.elapsedMs ?? null,
    timeoutMs: diagnostic?.timeoutMs ?? null,
    message: failureHeadline(diagnostic?.message ?? null, redactor),
  };
}

/** Orders rows by test name (else case id), then by when their execution started. */
function byTest(a: [TimedOutExecution, string], b: [TimedOutExecution, string]): number {
  const name = (row: TimedOutExecution) => row.testName ?? row.caseId ?? '';
  return (
    name(a[0]).localeCompare(name(b[0])) || a[1].localeCompare(b[1]) || a[0].executionId.localeCompare(b[0].executionId)
  );
}

/**
 * Lists the run's timed-out executions with the place their deadline named. `attempts` are the run's
 * attempts the summary already read (they give each execution its test name); `executions` the
 * run's executions when the caller already listed them (else they are listed here).
 */
export async function collectTimeouts(
  store: SummaryStore,
  runId: string,
  attempts: readonly AttemptRecord[],
  redactor: Redactor,
  executions?: readonly ExecutionRecord[],
): Promise<TimedOutExecution[]> {
  const timedOut = (executions ?? (await store.listExecutions({ runId }))).filter((e) => e.outcome === 'timed_out');
  if (timedOut.length === 0) return [];
  const attemptsById = new Map(attempts.map((a) => [a.attemptId, a]));
  const rows: Array<[TimedOutExecution, string]> = [];
  for (let start = 0; start < timedOut.length; start += TRACE_READS_AT_ONCE) {
    const batch = timedOut.slice(start, start + TRACE_READS_AT_ONCE);
    const diagnostics = await Promise.all(batch.map((e) => readDiagnostic(store, e.executionId)));
    batch.forEach((execution, index) => {
      const attempt = execution.attemptId === null ? undefined : attemptsById.get(execution.attemptId);
      rows.push([timedOutRow(execution, attempt, diagnostics[index]!, redactor), execution.createdAt]);
    });
  }
  return rows.sort(byTest).map(([row]) => row);
}
