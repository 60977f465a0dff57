// The pass-rate counts a baseline comparison tests: per evaluator over the whole run, and per
// evaluator × suite, case, harness, and harness and model, read through the store's aggregation
// (so the denominators are the summary's: passed / expected, errors and missing lowering the rate).
import type { AggregationReport } from '@sf-m3/core';
import type { SummaryStore } from '../summary/collectRunFacts';
import type { EvaluatorDelta } from '../summary/RunSummary';

/** The grouping of a pass-rate row. */
export type RateScope = EvaluatorDelta['scope'];

/** One row of pass-rate counts of a run. */
export interface RateGroup {
  scope: RateScope;
  evaluator: string;
  suiteName: string | null;
  caseId: string | null;
  harness: string | null;
  model: string | null;
  passed: number;
  expected: number;
}

const GROUPINGS: ReadonlyArray<[RateScope, Array<'suiteName' | 'caseId' | 'harness' | 'model'>]> = [
  ['evaluator', []],
  ['suite', ['suiteName']],
  ['case', ['caseId']],
  ['harness', ['harness']],
  ['model', ['harness', 'model']],
];

/** The key two runs' rows are matched by. */
export function rateGroupKey(row: Omit<RateGroup, 'passed' | 'expected'>): string {
  return JSON.stringify([row.scope, row.evaluator, row.suiteName, row.caseId, row.harness, row.model]);
}

function rowsOf(scope: RateScope, report: AggregationReport): RateGroup[] {
  const rows: RateGroup[] = [];
  for (const { key, values } of report.groups) {
    // Executions without a harness (direct ones) have no harness or model to group by.
    if ((scope === 'harness' || scope === 'model') && key.harness === null) continue;
    rows.push({
      scope,
      evaluator: key.evaluator ?? '(unnamed)',
      suiteName: scope === 'suite' ? (key.suiteName ?? null) : null,
      caseId: scope === 'case' ? (key.caseId ?? null) : null,
      harness: scope === 'harness' || scope === 'model' ? (key.harness ?? null) : null,
      model: scope === 'model' ? (key.model ?? null) : null,
      passed: values.passedCount,
      expected: values.expectedCount,
    });
  }
  return rows;
}

/** Reads every pass-rate row of a run, keyed by `rateGroupKey`. */
export async function collectRateGroups(store: SummaryStore, runId: string): Promise<Map<string, RateGroup>> {
  const reports = await Promise.all(
    GROUPINGS.map(([, labels]) =>
      store.aggregateEvaluations({ filters: { runId: [runId] }, groupBy: ['evaluator', ...labels] }),
    ),
  );
  const rows = new Map<string, RateGroup>();
  GROUPINGS.forEach(([scope], index) => {
    for (const row of rowsOf(scope, reports[index]!)) rows.set(rateGroupKey(row), row);
  });
  return rows;
}
