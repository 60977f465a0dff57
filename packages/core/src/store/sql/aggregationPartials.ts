/**
 * The partial counts each trial row of an aggregation carries, summed per group and for the
 * totals (contract §10), in the order both SQL stores select and read them.
 */
export const AGGREGATION_PARTIALS = [
  'evaluation_count',
  'passed',
  'failed',
  'inconclusive',
  'error',
  'not_run',
  'missing',
  'pending',
  'score_sum',
  'score_count',
] as const;

/** One partial count of a trial row. */
export type AggregationPartial = (typeof AGGREGATION_PARTIALS)[number];
