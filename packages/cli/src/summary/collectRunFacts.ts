// Reads one run's facts from the store: the run, its attempts, suites, per-evaluator statistics
// (via the store's aggregation) and the required evaluations that did not pass.
import type { AttemptRecord, EvaluationResult, ExecutionStore, Redactor, RunRecord, SuiteRecord } from '@sf-m3/core';
import { UsageError } from '../options/UsageError';
import { failureHeadline } from './failureText';
import type { EvaluatorStats, RequiredFailure } from './RunSummary';

/** The parts of a store the summary reads. */
export type SummaryStore = Pick<
  ExecutionStore,
  | 'getRun'
  | 'listRuns'
  | 'listAttempts'
  | 'listSuites'
  | 'listEvaluations'
  | 'aggregateEvaluations'
  | 'isRequiredLineage'
  | 'listExecutions'
  | 'getTraceView'
  | 'getTrace'
  | 'countJudgeRequests'
>;

/** One run as read from the store. */
export interface RunFacts {
  run: RunRecord;
  attempts: AttemptRecord[];
  suites: SuiteRecord[];
  evaluators: EvaluatorStats[];
  requiredFailures: RequiredFailure[];
  /** The latest evaluation of every lineage of the run. */
  evaluations: EvaluationResult[];
}

/** Reads a run's facts; throws `UsageError` when the run is not in the store. */
export async function collectRunFacts(store: SummaryStore, runId: string, redactor: Redactor): Promise<RunFacts> {
  const run = await store.getRun(runId);
  if (run === null) throw new UsageError('RUN_ID', `run ${runId} is not in the results database`);
  const [attempts, suites, report, evaluations] = await Promise.all([
    store.listAttempts({ runId }),
    store.listSuites(),
    store.aggregateEvaluations({ filters: { runId: [runId] }, groupBy: ['evaluator'] }),
    store.listEvaluations({ runId }),
  ]);

  const evaluators: EvaluatorStats[] = report.groups
    .map((group) => ({
      evaluator: group.key.evaluator ?? '(unnamed)',
      passRate: group.values.passRate,
      interval: group.values.passRateInterval,
      passed: group.values.passedCount,
      expected: group.values.expectedCount,
      evaluationCount: group.values.evaluationCount,
      missingRequired: group.values.missingRequiredCount,
      pendingRequired: group.values.pendingRequiredCount,
      statusCounts: group.values.statusCounts,
      averageScore: group.values.averageScore,
    }))
    .sort((a, b) => a.evaluator.localeCompare(b.evaluator));

  // Required is sticky per lineage: a later non-required row of a required lineage still counts.
  const requiredFailures: RequiredFailure[] = [];
  for (const e of evaluations) {
    if (e.status === 'passed') continue;
    if (!e.required && !(await store.isRequiredLineage(e))) continue;
    requiredFailures.push({
      evaluator: e.evaluator,
      status: e.status,
      executionId: e.executionId,
      caseId: e.caseId,
      evaluationId: e.evaluationId,
      rationale: failureHeadline(e.rationale, redactor),
    });
  }
  for (const stats of evaluators) {
    if (stats.missingRequired > 0) {
      requiredFailures.push({
        evaluator: stats.evaluator,
        status: 'missing',
        executionId: null,
        caseId: null,
        evaluationId: null,
        rationale: `${stats.missingRequired} required evaluation(s) never ran`,
      });
    }
  }

  const usedSuiteIds = new Set(attempts.map((a) => a.suiteId).filter((id): id is number => id !== null));
  return {
    run,
    attempts,
    suites: suites.filter((s) => usedSuiteIds.has(s.suiteId)),
    evaluators,
    requiredFailures,
    evaluations,
  };
}

/** The last try of every test (highest retry index), keyed by test path and full name. */
export function finalAttempts(attempts: readonly AttemptRecord[]): AttemptRecord[] {
  const latest = new Map<string, AttemptRecord>();
  for (const attempt of attempts) {
    const key = `${attempt.testPath}\u0000${attempt.fullName}`;
    const seen = latest.get(key);
    if (!seen || attempt.retryIndex > seen.retryIndex) latest.set(key, attempt);
  }
  return [...latest.values()];
}
