// The trends view: pass rate (with its 95% Wilson interval) per evaluator, suite, model, harness,
// case or `metadata.<key>` over the newest runs, or over UTC day / week buckets of all history. The
// store aggregates; the viewer only reshapes groups into chart series.
import type { AggregationLabel, ExecutionStore, TimeBucket } from '@sf-m3/core';
import { isTrendGroup, RUN_LIST_LIMIT, TREND_BUCKETS, type TrendBucket } from './apiPaths';
import { testPassRate } from '../shape/testPassRate';
import { ViewerBadRequest } from './ViewerNotFound';

/** One point of a series: an x value (seconds since the epoch) and the rate there. */
export interface TrendPoint {
  x: number;
  /** The run id (bucket `run`) or the bucket's UTC date. */
  at: string;
  passRate: number | null;
  interval: [number, number] | null;
  passed: number;
  expected: number;
}

/** One line of a chart: the labels it is for and its points in x order. */
export interface TrendSeries {
  key: Record<string, string | null>;
  points: TrendPoint[];
}

/** The trends view's data. */
export interface TrendsPage {
  group: string;
  bucket: TrendBucket;
  series: TrendSeries[];
  /** Tests passed per run (passed / (passed + failed) attempts), charted beside the evaluations; null for day and week buckets. */
  tests: TrendPoint[] | null;
}

/** Checks the query of `/api/trends`. */
export function parseTrendQuery(
  group: string | undefined,
  bucket: string | undefined,
): { group: string; bucket: TrendBucket } {
  const g = group ?? 'evaluator';
  const b = bucket ?? 'run';
  if (!isTrendGroup(g)) {
    throw new ViewerBadRequest(
      `group must be evaluator, suiteName, model, harness, caseId or metadata.<key>, got ${JSON.stringify(g)}`,
    );
  }
  if (!(TREND_BUCKETS as readonly string[]).includes(b)) {
    throw new ViewerBadRequest(`bucket must be run, time.day or time.week, got ${JSON.stringify(b)}`);
  }
  return { group: g, bucket: b as TrendBucket };
}

/** Aggregates the trend and shapes it into series. */
export async function trendsPage(store: ExecutionStore, group: string, bucket: TrendBucket): Promise<TrendsPage> {
  const labels: AggregationLabel[] = group === 'evaluator' ? ['evaluator'] : ['evaluator', group as AggregationLabel];
  const series = new Map<string, TrendSeries>();
  const add = (key: Record<string, string | null>, point: TrendPoint): void => {
    const id = JSON.stringify(labels.map((l) => key[l] ?? null));
    const line = series.get(id) ?? { key: Object.fromEntries(labels.map((l) => [l, key[l] ?? null])), points: [] };
    line.points.push(point);
    series.set(id, line);
  };
  let tests: TrendPoint[] | null = null;
  if (bucket === 'run') {
    const runs = await store.listRuns({ limit: RUN_LIST_LIMIT });
    if (runs.length === 0) return { group, bucket, series: [], tests: [] };
    const started = new Map(runs.map((r) => [r.runId, Date.parse(r.startedAt) / 1000]));
    const report = await store.aggregateEvaluations({
      filters: { runId: runs.map((r) => r.runId) },
      groupBy: [...labels, 'runId'],
    });
    for (const g of report.groups) {
      const runId = g.key.runId ?? '';
      add(g.key, point(started.get(runId) ?? 0, runId, g.values));
    }
    tests = runs
      .map((run) => {
        const rate = testPassRate(run.counts);
        return {
          x: started.get(run.runId) ?? 0,
          at: run.runId,
          passRate: rate.passRate,
          interval: null,
          passed: rate.passed,
          expected: rate.passed + rate.failed,
        };
      })
      .sort((a, b) => a.x - b.x);
  } else {
    const report = await store.aggregateEvaluations({ groupBy: [...labels, bucket as TimeBucket] });
    for (const g of report.groups) {
      const at = g.key[bucket] ?? '';
      add(g.key, point(Date.parse(`${at}T00:00:00Z`) / 1000, at, g.values));
    }
  }
  const sorted = [...series.values()].map((s) => ({ ...s, points: s.points.sort((a, b) => a.x - b.x) }));
  sorted.sort((a, b) => JSON.stringify(a.key).localeCompare(JSON.stringify(b.key)));
  return { group, bucket, series: sorted, tests };
}

function point(
  x: number,
  at: string,
  values: {
    passRate: number | null;
    passRateInterval: [number, number] | null;
    passedCount: number;
    expectedCount: number;
  },
): TrendPoint {
  return {
    x,
    at,
    passRate: values.passRate,
    interval: values.passRateInterval,
    passed: values.passedCount,
    expected: values.expectedCount,
  };
}
