// The run view: the run's summary (suites, attempts, evaluators, required failures, per harness /
// model / case rates, the comparison with the run before it), its attempts and per-case rates.
import type { AttemptRecord, ExecutionStore, Redactor } from '@sf-m3/core';
import { resolveBaseline } from '../../baseline/resolveBaseline';
import type { RunSummary } from '../../summary/RunSummary';
import { buildRunSummary } from '../../summary/buildRunSummary';
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
  attempts: AttemptRecord[];
  caseRates: CaseRate[];
  executionCount: number;
}

/** Where the viewer reads from, for the summary's `resultsDb` field. */
export interface RunPageContext {
  redactor: Redactor;
  resultsDb: string;
  cwd: string;
}

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
  const caseRates: CaseRate[] = byCase.groups.map((g) => ({
    evaluator: g.key.evaluator ?? '',
    caseId: g.key.caseId ?? null,
    passRate: g.values.passRate,
    interval: g.values.passRateInterval,
    passed: g.values.passedCount,
    expected: g.values.expectedCount,
  }));
  const shownAttempts = attempts.map((a) => ({
    ...a,
    fullName: context.redactor.redactText(a.fullName),
    failureMessage: a.failureMessage === null ? null : context.redactor.redactText(a.failureMessage),
  }));
  return { summary, attempts: shownAttempts, caseRates, executionCount: await store.countExecutions({ runId }) };
}
