import type { AggregateCounts } from '@sf-m3/core';

/** One row of the aggregation SQL (`pg` returns COUNT's bigint as a string, hence `Number`). */
export type CountsRow = Record<string, unknown> & {
  is_total: number;
  evaluation_count: number;
  passed: number;
  failed: number;
  inconclusive: number;
  error: number;
  not_run: number;
  missing: number;
  pending: number;
  score_sum: number;
  score_count: number;
  execution_count: string;
  case_count: string;
  cases_all: string;
  cases_any: string;
};

/** The raw counts of one row. */
export function countsOf(row: CountsRow): AggregateCounts {
  return {
    evaluationCount: Number(row.evaluation_count),
    statusCounts: {
      passed: Number(row.passed),
      failed: Number(row.failed),
      inconclusive: Number(row.inconclusive),
      error: Number(row.error),
      not_run: Number(row.not_run),
    },
    missingRequiredCount: Number(row.missing),
    pendingRequiredCount: Number(row.pending),
    scoreSum: Number(row.score_sum),
    scoreCount: Number(row.score_count),
    executionCount: Number(row.execution_count),
    caseCount: Number(row.case_count),
    casesAllPassed: Number(row.cases_all),
    casesAnyPassed: Number(row.cases_any),
  };
}
