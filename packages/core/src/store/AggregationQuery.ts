import type { EvaluationStatus } from '../enums';

/** Labels evaluations can be filtered and grouped by. `metadata.<key>` is also accepted. */
export const AGGREGATION_LABELS = [
  'evaluator',
  'runId',
  'suiteName',
  'caseId',
  'executionId',
  'turnId',
  'status',
  'server',
  'tool',
  'transport',
  'harness',
  'model',
  'trial',
  'judgeModel',
  'rubricId',
  'matrixId',
] as const;
/** A fixed aggregation label. */
export type FixedLabel = (typeof AGGREGATION_LABELS)[number];
/** Any aggregation label. */
export type AggregationLabel = FixedLabel | `metadata.${string}`;
/** Group-only time buckets (UTC of the execution's creation). */
export type TimeBucket = 'time.hour' | 'time.day' | 'time.week';

/** What to aggregate. */
export interface AggregationQuery {
  readonly filters?: Partial<Record<AggregationLabel, readonly (string | null)[]>>;
  readonly groupBy?: readonly (AggregationLabel | TimeBucket)[];
  /** ISO timestamps bounding the execution's creation (inclusive from, exclusive to). */
  readonly from?: string;
  readonly to?: string;
}

/** Pass-rate figures of one group. */
export interface AggregateValues {
  readonly passRate: number | null;
  readonly passRateInterval: [number, number] | null;
  readonly evaluationCount: number;
  readonly expectedCount: number;
  readonly passedCount: number;
  readonly missingRequiredCount: number;
  readonly pendingRequiredCount: number;
  readonly statusCounts: Record<EvaluationStatus, number>;
  readonly averageScore: number | null;
  readonly scoreCount: number;
  readonly executionCount: number;
  readonly caseCount: number;
  readonly casesAllPassed: number;
  readonly casesAnyPassed: number;
}

/** The answer to an aggregation query. */
export interface AggregationReport {
  readonly totals: AggregateValues;
  readonly groups: { readonly key: Record<string, string | null>; readonly values: AggregateValues }[];
}
