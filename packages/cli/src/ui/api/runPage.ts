// The run view: the run's summary (suites, attempts, evaluators, required failures, per harness /
// model / case rates, the comparison with the run before it), its attempts and per-case rates.
import type { AttemptRecord, ExecutionStore, Redactor } from '@sf-m3/core';
import { resolveBaseline } from '../../baseline/resolveBaseline';
import type { RunSummary } from '../../summary/RunSummary';
import { buildRunSummary } from '../../summary/buildRunSummary';
import { failedTestEntries, type FailedTestEntry } from '../shape/failedTestEntries';
import { ViewerNotFound } from './ViewerNotFound';

/** A pass rate of one evaluator on one case. */
export interface CaseRate {
  evaluator: string;
  caseId: string | null;
  passRate: number | null;
  interval: [number, number] | null;
  passed: number;
  expected: number;
}

/** The run view's data. */
export interface RunPage {
  summary: RunSummary;
  /** The failed tests with their executions and failed assertions, shown first (the first `MAX_LISTED_FAILED_TESTS`). */
  failedTests: FailedTestEntry[];
  attempts: AttemptRecord[];
  /** Evaluator × case pairs that did not all pass (the ones a reader looks for), worst first. */
  caseRates: CaseRate[];
  /** Evaluator × case pairs where every evaluation passed, counted but not listed. */
  caseRatesAllPassed: number;
  executionCount: number;
}

/** Where the viewer reads from, for the summary's `resultsDb` field. */
export interface RunPageContext {
  redactor: Redactor;
  resultsDb: string;
  cwd: string;
}

/** Failed tests joined with their executions and assertions, at most (the attempts list has all). */
export const MAX_LISTED_FAILED_TESTS = 50;

/** Builds the run view's data; an unknown run is `ViewerNotFound`. */
export async function runPage(store: ExecutionStore, runId: string, context: RunPageContext): Promise<RunPage> {
  const run = await store.getRun(runId);
  if (run === null) throw new ViewerNotFound(`run ${runId} is not in the results database`);
  const baseline = await resolveBaseline(store, 'latest', run);
  const { summary, attempts } = await buildRunSummary(store, {
    runId,
    redactor: context.redactor,
    resultsDb: context.resultsDb,
    cwd: context.cwd,
    baselineRunId: baseline.runId,
    baselineNote: baseline.note,
    jestExit: null,
  });
  const byCase = await store.aggregateEvaluations({ filters: { runId: [runId] }, groupBy: ['evaluator', 'caseId'] });
  const allCaseRates: CaseRate[] = byCase.groups.map((g) => ({
    evaluator: g.key.evaluator ?? '',
    caseId: g.key.caseId ?? null,
    passRate: g.values.passRate,
    interval: g.values.passRateInterval,
    passed: g.values.passedCount,
    expected: g.values.expectedCount,
  }));
  const allPassed = (c: CaseRate) => c.expected > 0 && c.passed === c.expected;
  const caseRates = allCaseRates.filter((c) => !allPassed(c)).sort((a, b) => (a.passRate ?? -1) - (b.passRate ?? -1));
  const caseRatesAllPassed = allCaseRates.length - caseRates.length;
  const shownAttempts = attempts.map((a) => ({
    ...a,
    fullName: context.redactor.redactText(a.fullName),
    failureMessage: a.failureMessage === null ? null : context.redactor.redactText(a.failureMessage),
  }));
  const listed = summary.failedTests.slice(0, MAX_LISTED_FAILED_TESTS);
  const failedAttempts = attempts.filter((a) =>
    listed.some((t) => t.testPath === a.testPath && t.fullName === context.redactor.redactText(a.fullName)),
  );
  const [executions, evaluations] = await Promise.all([
    Promise.all(failedAttempts.map((a) => store.listExecutions({ runId, attemptId: a.attemptId }))),
    listed.length === 0 ? [] : store.listEvaluations({ runId }),
  ]);
  const failedTests = failedTestEntries(listed, shownAttempts, executions.flat(), evaluations, context.cwd);
  return {
    summary,
    failedTests,
    attempts: shownAttempts,
    caseRates,
    caseRatesAllPassed,
    executionCount: await store.countExecutions({ runId }),
  };
}
