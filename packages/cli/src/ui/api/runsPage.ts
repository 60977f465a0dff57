// The runs view: the newest runs with their status, attempt counts and overall pass rate.
import type { AggregateValues, ExecutionStore, RunRecord } from '@sf-m3/core';
import { RUN_LIST_LIMIT } from './apiPaths';

/** One row of the runs view. */
export interface RunRow {
  run: RunRecord;
  /** Every evaluation of the run: passed / expected, with the 95% Wilson interval. */
  passRate: number | null;
  passedCount: number;
  expectedCount: number;
  executionCount: number;
}

/** The runs view's data: newest first. */
export interface RunsPage {
  runs: RunRow[];
  limit: number;
}

/** Sums the per-evaluator groups of one run into an overall rate (a run mixes evaluators). */
export function overallRate(values: readonly AggregateValues[]): Omit<RunRow, 'run'> {
  const passedCount = values.reduce((n, v) => n + v.passedCount, 0);
  const expectedCount = values.reduce((n, v) => n + v.expectedCount, 0);
  const executionCount = values.reduce((n, v) => Math.max(n, v.executionCount), 0);
  return {
    passRate: expectedCount === 0 ? null : passedCount / expectedCount,
    passedCount,
    expectedCount,
    executionCount,
  };
}

/** Reads the newest `RUN_LIST_LIMIT` runs and one aggregation over them (grouped by run and evaluator). */
export async function runsPage(store: ExecutionStore): Promise<RunsPage> {
  const runs = await store.listRuns({ limit: RUN_LIST_LIMIT });
  const byRun = new Map<string, AggregateValues[]>();
  if (runs.length > 0) {
    const report = await store.aggregateEvaluations({
      filters: { runId: runs.map((r) => r.runId) },
      groupBy: ['runId', 'evaluator'],
    });
    for (const group of report.groups) {
      const runId = group.key.runId ?? '';
      byRun.set(runId, [...(byRun.get(runId) ?? []), group.values]);
    }
  }
  return { runs: runs.map((run) => ({ run, ...overallRate(byRun.get(run.runId) ?? []) })), limit: RUN_LIST_LIMIT };
}
