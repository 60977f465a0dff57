import type { EvaluationStatus } from '../../enums';
import type { AggregationLabel, FixedLabel, TimeBucket } from '../AggregationQuery';
import { metadataKeyOf } from './validateAggregationQuery';
import { isTimeBucket, timeBucketOf } from './timeBucket';

/**
 * One unit the aggregation engine counts: the latest row of an evaluation lineage, or a
 * synthetic required evaluation that has no row yet (`missing` once its execution and attempt
 * are terminal, `pending` while either still runs).
 */
export interface AggregationItem {
  readonly kind: 'row' | 'missing' | 'pending';
  /** The row's status; `null` for synthetic items. */
  readonly status: EvaluationStatus | null;
  readonly score: number | null;
  readonly executionId: string | null;
  readonly caseId: string | null;
  /** ISO creation time of the execution (the row's own time when it has no known execution). */
  readonly executionCreatedAt: string;
  /** Every fixed label (`evaluator`, `status`, `executionId`, ... included). */
  readonly labels: Readonly<Record<FixedLabel, string | null>>;
  /** `metadata.<key>` label values. */
  readonly metadata: Readonly<Record<string, string>>;
}

/** The value of `label` on `item` (`null` when the item has no such label). */
export function labelValue(item: AggregationItem, label: AggregationLabel | TimeBucket): string | null {
  if (isTimeBucket(label)) return timeBucketOf(label, item.executionCreatedAt);
  const key = metadataKeyOf(label);
  if (key !== null) return Object.prototype.hasOwnProperty.call(item.metadata, key) ? item.metadata[key]! : null;
  return item.labels[label as FixedLabel] ?? null;
}
