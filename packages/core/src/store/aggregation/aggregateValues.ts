import { EvaluationStatus } from '../../enums';
import type { AggregateValues } from '../AggregationQuery';
import { wilsonInterval } from './wilsonInterval';

/** Raw counts of one group, as either store computes them (in JS or in SQL). */
export interface AggregateCounts {
  /** Latest lineage rows in scope, any status. */
  readonly evaluationCount: number;
  readonly statusCounts: Partial<Record<EvaluationStatus, number>>;
  readonly missingRequiredCount: number;
  readonly pendingRequiredCount: number;
  /** Sum and number of non-null scores of the latest rows. */
  readonly scoreSum: number;
  readonly scoreCount: number;
  readonly executionCount: number;
  readonly caseCount: number;
  readonly casesAllPassed: number;
  readonly casesAnyPassed: number;
}

/** Every status, in contract order, for zero-filling. */
export const ALL_STATUSES: readonly EvaluationStatus[] = Object.values(EvaluationStatus);

/** Counts with nothing in them. */
export const EMPTY_COUNTS: AggregateCounts = {
  evaluationCount: 0,
  statusCounts: {},
  missingRequiredCount: 0,
  pendingRequiredCount: 0,
  scoreSum: 0,
  scoreCount: 0,
  executionCount: 0,
  caseCount: 0,
  casesAllPassed: 0,
  casesAnyPassed: 0,
};

/**
 * Turns raw counts into the reported values: expected = latest rows + missing required (pending
 * stays out), pass rate = passed / expected with its 95% Wilson interval, statuses zero-filled.
 */
export function buildAggregateValues(counts: AggregateCounts): AggregateValues {
  const statusCounts = Object.fromEntries(ALL_STATUSES.map((s) => [s, counts.statusCounts[s] ?? 0])) as Record<
    EvaluationStatus,
    number
  >;
  const passedCount = statusCounts.passed;
  const expectedCount = counts.evaluationCount + counts.missingRequiredCount;
  return {
    passRate: expectedCount === 0 ? null : passedCount / expectedCount,
    passRateInterval: wilsonInterval(passedCount, expectedCount),
    evaluationCount: counts.evaluationCount,
    expectedCount,
    passedCount,
    missingRequiredCount: counts.missingRequiredCount,
    pendingRequiredCount: counts.pendingRequiredCount,
    statusCounts,
    averageScore: counts.scoreCount === 0 ? null : counts.scoreSum / counts.scoreCount,
    scoreCount: counts.scoreCount,
    executionCount: counts.executionCount,
    caseCount: counts.caseCount,
    casesAllPassed: counts.casesAllPassed,
    casesAnyPassed: counts.casesAnyPassed,
  };
}

/** Orders group keys by their values as strings, `null` first, label by label. */
export function compareGroupKeys(a: readonly (string | null)[], b: readonly (string | null)[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === y) continue;
    if (x === null) return -1;
    if (y === null) return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}
