// What the JUnit and Markdown reports read besides the run summary: every attempt, the latest
// evaluation of every lineage (to hang verdicts on the attempt whose execution they judged), and
// pass rates per evaluator within each suite.
import type { EvaluationResult, Redactor } from '@sf-m3/core';
import type { SummarizedRun } from '../summary/buildRunSummary';
import type { SummaryStore } from '../summary/collectRunFacts';

/** One evaluator's pass rate within one suite. */
export interface SuiteEvaluatorRate {
  evaluator: string;
  passRate: number | null;
  passed: number;
  expected: number;
}

/** A run summary with the rows the reports need. */
export interface ReportData extends SummarizedRun {
  /** Latest row per lineage, oldest first, rationale redacted. */
  evaluations: EvaluationResult[];
  /** Evaluator rates keyed by suite name. */
  suiteRates: Map<string, SuiteEvaluatorRate[]>;
  /** Test paths are shown relative to this folder. */
  cwd: string;
}

/** Reads the evaluations and per-suite rates of `summarized`'s run. */
export async function collectReportData(
  store: SummaryStore,
  summarized: SummarizedRun,
  redactor: Redactor,
  cwd: string,
): Promise<ReportData> {
  const runId = summarized.summary.runId;
  const [evaluations, bySuite] = await Promise.all([
    store.listEvaluations({ runId }),
    store.aggregateEvaluations({ filters: { runId: [runId] }, groupBy: ['evaluator', 'suiteName'] }),
  ]);
  const suiteRates = new Map<string, SuiteEvaluatorRate[]>();
  for (const group of bySuite.groups) {
    const suite = group.key.suiteName;
    if (suite === null || suite === undefined) continue;
    const rates = suiteRates.get(suite) ?? [];
    rates.push({
      evaluator: group.key.evaluator ?? '(unnamed)',
      passRate: group.values.passRate,
      passed: group.values.passedCount,
      expected: group.values.expectedCount,
    });
    suiteRates.set(suite, rates);
  }
  for (const rates of suiteRates.values()) rates.sort((a, b) => a.evaluator.localeCompare(b.evaluator));
  return {
    ...summarized,
    evaluations: evaluations.map((e) => ({
      ...e,
      rationale: e.rationale === null ? null : redactor.redactText(e.rationale),
    })),
    suiteRates,
    cwd,
  };
}
