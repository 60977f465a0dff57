import type { AggregationReport } from '../AggregationQuery';
import { buildAggregateValues, compareGroupKeys, type AggregateCounts } from './aggregateValues';
import type { NormalizedAggregationQuery } from './validateAggregationQuery';

/**
 * One row of a SQL store's aggregation query (SQLite's and PostgreSQL's `aggregateSql.ts`):
 * `is_total` (1 for the totals row), the group key columns `g0 … gN`, and the counts by name.
 * Counts may be numbers or numeric strings (`pg` returns bigint COUNTs as strings).
 */
export type AggregationCountsRow = Readonly<Record<string, unknown>>;

/** The raw counts of one row. */
export function countsOfRow(row: AggregationCountsRow): AggregateCounts {
  const n = (column: string): number => Number(row[column]);
  return {
    evaluationCount: n('evaluation_count'),
    statusCounts: {
      passed: n('passed'),
      failed: n('failed'),
      inconclusive: n('inconclusive'),
      error: n('error'),
      not_run: n('not_run'),
    },
    missingRequiredCount: n('missing'),
    pendingRequiredCount: n('pending'),
    scoreSum: n('score_sum'),
    scoreCount: n('score_count'),
    executionCount: n('execution_count'),
    caseCount: n('case_count'),
    casesAllPassed: n('cases_all'),
    casesAnyPassed: n('cases_any'),
  };
}

/** A group key value as the report carries it: text, or null for a missing label. */
function keyValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : String(value);
}

/**
 * The report of `query` from the rows its aggregation SQL returned: the totals row, and one group
 * per other row, sorted by key as every store sorts them (`compareGroupKeys`).
 */
export function aggregationReportOfRows(
  query: NormalizedAggregationQuery,
  rows: readonly AggregationCountsRow[],
): AggregationReport {
  const totals = rows.find((row) => Number(row.is_total) === 1);
  if (totals === undefined) throw new Error('the aggregation SQL returned no totals row (is_total = 1)');
  const groups = rows
    .filter((row) => Number(row.is_total) === 0)
    .map((row) => ({
      keyValues: query.groupBy.map((_, i) => keyValue(row[`g${i}`])),
      values: buildAggregateValues(countsOfRow(row)),
    }))
    .sort((a, b) => compareGroupKeys(a.keyValues, b.keyValues))
    .map(({ keyValues, values }) => ({
      key: Object.fromEntries(query.groupBy.map((label, i) => [label, keyValues[i] ?? null])),
      values,
    }));
  return { totals: buildAggregateValues(countsOfRow(totals)), groups };
}
