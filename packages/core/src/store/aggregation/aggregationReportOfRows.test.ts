import { aggregationReportOfRows, countsOfRow } from './aggregationReportOfRows';
import { buildAggregateValues } from './aggregateValues';
import { validateAggregationQuery } from './validateAggregationQuery';

const counts = (evaluations: number, passed: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  evaluation_count: evaluations,
  passed,
  failed: evaluations - passed,
  inconclusive: 0,
  error: 0,
  not_run: 0,
  missing: 1,
  pending: 0,
  score_sum: passed * 0.5,
  score_count: evaluations,
  execution_count: '2',
  case_count: '2',
  cases_all: '1',
  cases_any: '2',
  ...extra,
});

describe('countsOfRow', () => {
  it('reads numbers and the numeric strings pg returns for bigint counts alike', () => {
    expect(countsOfRow(counts(4, 3))).toEqual({
      evaluationCount: 4,
      statusCounts: { passed: 3, failed: 1, inconclusive: 0, error: 0, not_run: 0 },
      missingRequiredCount: 1,
      pendingRequiredCount: 0,
      scoreSum: 1.5,
      scoreCount: 4,
      executionCount: 2,
      caseCount: 2,
      casesAllPassed: 1,
      casesAnyPassed: 2,
    });
    expect(countsOfRow(counts(4, 3, { evaluation_count: '4', passed: '3' }))).toEqual(countsOfRow(counts(4, 3)));
  });
});

describe('aggregationReportOfRows', () => {
  const query = validateAggregationQuery({ filters: { evaluator: ['e.v1'] }, groupBy: ['suiteName', 'trial'] });

  it('takes the totals row and sorts the groups by key, null keys as every store does', () => {
    const rows = [
      { is_total: 0, g0: 'suite-b', g1: '1', ...counts(1, 1) },
      { is_total: 1, g0: null, g1: null, ...counts(6, 4) },
      { is_total: 0, g0: 'suite-a', g1: null, ...counts(2, 1) },
      { is_total: '0', g0: 'suite-a', g1: 2, ...counts(3, 2) },
    ];
    const report = aggregationReportOfRows(query, rows);
    expect(report.totals).toEqual(buildAggregateValues(countsOfRow(counts(6, 4))));
    // null first, then by string: suite-a/null, suite-a/'2' (a number key becomes its text), suite-b/'1'.
    expect(report.groups.map((g) => g.key)).toEqual([
      { suiteName: 'suite-a', trial: null },
      { suiteName: 'suite-a', trial: '2' },
      { suiteName: 'suite-b', trial: '1' },
    ]);
    expect(report.groups).toHaveLength(3);
    expect(report.groups).toContainEqual({
      key: { suiteName: 'suite-a', trial: '2' },
      values: buildAggregateValues(countsOfRow(counts(3, 2))),
    });
    expect(report.groups).toContainEqual({
      key: { suiteName: 'suite-a', trial: null },
      values: buildAggregateValues(countsOfRow(counts(2, 1))),
    });
  });

  it('names a missing totals row', () => {
    expect(() => aggregationReportOfRows(query, [{ is_total: 0, g0: 'a', g1: 'b', ...counts(1, 1) }])).toThrow(
      'no totals row',
    );
  });
});
