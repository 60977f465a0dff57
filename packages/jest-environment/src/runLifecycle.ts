import type {
  AttemptCounts,
  AttemptRecord,
  ExecutionStore,
  RunProblem,
  RunProcess,
  RunRecord,
  RunStatus,
} from '@sf-m3/core';
import type { RequiredFailureReport, RunningFile, RunProblemReport, RunReport } from './RunStateDir';

/** State global setup leaves for global teardown (both run in Jest's main process). */
export interface GlobalRunState {
  readonly runId: string;
  readonly startedAt: string;
  readonly argv: string[];
  readonly resultsDb: string | null;
  /** Jest's `--shard=i/N` (1-based index), or null for an unsharded run. */
  readonly shard: { readonly index: number; readonly count: number } | null;
  /** The processes that own the run while it runs (`RunRecord.processes`). */
  readonly processes: readonly RunProcess[];
  readonly stateDir: string;
  /** Environment values global setup replaced, restored by teardown (watch mode starts a new run each time). */
  readonly previousEnv: Record<string, string | undefined>;
  /** Stops removing the state folder on a signal (teardown removes it itself). */
  readonly releaseSignals: () => void;
}

/** Where global setup keeps its state for teardown; a registry symbol survives module re-loading. */
export const GLOBAL_RUN_STATE: unique symbol = Symbol.for('sf-m3.global-run-state') as never;

/** Attempts by outcome; unfinished attempts are not counted. */
export function countAttempts(attempts: readonly AttemptRecord[]): AttemptCounts {
  const counts = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  for (const attempt of attempts) if (attempt.outcome !== null) counts[attempt.outcome] += 1;
  return counts;
}

/**
 * A test failed when its last try failed (a retry that passed makes the test pass, as in Jest).
 * Attempts that never finished count as failed: the worker died or the run was cut short.
 */
export function anyTestFailed(attempts: readonly AttemptRecord[]): boolean {
  const last = new Map<string, AttemptRecord>();
  for (const attempt of attempts) {
    const key = `${attempt.testPath}\u0000${attempt.fullName}`;
    const seen = last.get(key);
    if (seen === undefined || attempt.retryIndex >= seen.retryIndex) last.set(key, attempt);
  }
  return [...last.values()].some((attempt) => attempt.outcome === 'failed' || attempt.outcome === null);
}

/** Required evaluations of the run whose latest row did not pass, as saved in the store. */
export async function storedRequiredFailures(store: ExecutionStore, runId: string): Promise<RequiredFailureReport[]> {
  const failures: RequiredFailureReport[] = [];
  for (const evaluation of await store.listEvaluations({ runId })) {
    if (evaluation.status === 'passed') continue;
    if (!evaluation.required && !(await store.isRequiredLineage(evaluation))) continue;
    failures.push({
      kind: 'required_failure',
      evaluationId: evaluation.evaluationId,
      evaluator: evaluation.evaluator,
      status: evaluation.status,
      rationale: evaluation.rationale,
      testPath: '',
      fullName: evaluation.caseId ?? '(no case)',
    });
  }
  return failures;
}

/** A required evaluator that finished executions of the run never produced. */
export interface MissingRequired {
  readonly evaluator: string;
  readonly missingCount: number;
}

/** Required evaluators missing from terminal executions of the run (contract §8), from the store's aggregation. */
export async function storedMissingRequired(store: ExecutionStore, runId: string): Promise<MissingRequired[]> {
  const report = await store.aggregateEvaluations({ filters: { runId: [runId] }, groupBy: ['evaluator'] });
  return report.groups
    .filter((group) => group.values.missingRequiredCount > 0)
    .map((group) => ({ evaluator: String(group.key.evaluator), missingCount: group.values.missingRequiredCount }));
}

/** Required failures from workers and from the store, once per evaluation id. */
export function mergeRequiredFailures(
  reports: readonly RunReport[],
  stored: readonly RequiredFailureReport[],
): RequiredFailureReport[] {
  const byId = new Map<string, RequiredFailureReport>();
  for (const report of reports) if (report.kind === 'required_failure') byId.set(report.evaluationId, report);
  for (const failure of stored) if (!byId.has(failure.evaluationId)) byId.set(failure.evaluationId, failure);
  return [...byId.values()];
}

/** The finished run record; any problem fails it, and problems already saved on it are kept. */
export function finishRun(
  base: RunRecord,
  attempts: readonly AttemptRecord[],
  failed: boolean,
  finishedAt: string,
  problems: readonly RunProblem[] = [],
): RunRecord {
  const status: RunStatus = failed || problems.length > 0 || anyTestFailed(attempts) ? 'failed' : 'passed';
  const all = [...(base.problems ?? []), ...problems];
  const { processes: _owners, ...finished } = base; // a finished run has no owning processes
  return { ...finished, finishedAt, status, counts: countAttempts(attempts), ...(all.length > 0 && { problems: all }) };
}

/** Why a file whose mark was never cleared did not finish. */
export function unfinishedFileMessage(file: RunningFile): string {
  return `test file ${file.testPath} did not finish: its worker (pid ${file.pid}) was killed or crashed`;
}

/** What workers reported and files that never finished, as the run record's problems. */
export function runProblems(reports: readonly RunReport[], unfinished: readonly RunningFile[]): RunProblem[] {
  const problems: RunProblem[] = [];
  for (const report of reports) {
    if (report.kind === 'required_failure' || report.kind === 'cassette_file') continue;
    const what = report.kind === 'file_error' ? 'could not run to the end' : 'lost results';
    problems.push({
      kind: report.kind,
      testPath: report.testPath,
      message: `test file ${report.testPath} ${what}: ${report.message}`,
    });
  }
  for (const file of unfinished) {
    problems.push({ kind: 'file_unfinished', testPath: file.testPath, message: unfinishedFileMessage(file) });
  }
  return problems;
}

const MAX_RATIONALE_IN_SUMMARY = 300;

/** The message the run fails with when required evaluations did not pass or results were lost. */
export function runFailureMessage(
  required: readonly RequiredFailureReport[],
  problems: readonly RunReport[],
  missing: readonly MissingRequired[] = [],
): string | null {
  const lines: string[] = [];
  if (required.length > 0) {
    lines.push(`m3: ${required.length} required evaluation(s) did not pass, so the run fails:`);
    for (const failure of required) {
      const where = failure.testPath.length > 0 ? ` (${failure.testPath})` : '';
      const rationale = (failure.rationale ?? 'no rationale').replace(/\s+/g, ' ');
      const bounded =
        rationale.length > MAX_RATIONALE_IN_SUMMARY ? `${rationale.slice(0, MAX_RATIONALE_IN_SUMMARY)}…` : rationale;
      lines.push(`  - ${failure.evaluator} ${failure.status} in "${failure.fullName}"${where}: ${bounded}`);
    }
  }
  if (missing.length > 0) {
    lines.push(`m3: ${missing.length} required evaluator(s) never ran on finished executions, so the run fails:`);
    for (const entry of missing) lines.push(`  - ${entry.evaluator} missing for ${entry.missingCount} execution(s)`);
  }
  const lost = problems.filter((report): report is RunProblemReport => report.kind === 'persistence_error');
  if (lost.length > 0) {
    lines.push(`m3: ${lost.length} result(s) could not be saved, so the saved run is incomplete:`);
    for (const report of lost) lines.push(`  - ${report.testPath}: ${report.message}`);
  }
  return lines.length === 0 ? null : lines.join('\n');
}
