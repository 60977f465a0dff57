import { ModelValidationError } from '../../errors/M3Error';
import { AGGREGATION_LABELS, type AggregationLabel, type AggregationQuery, type TimeBucket } from '../AggregationQuery';
import { isTimeBucket } from './timeBucket';

/** One filter of a validated query: the label must equal one of `values` (`null` matches a missing label). */
export interface LabelFilter {
  readonly label: AggregationLabel;
  readonly values: readonly (string | null)[];
}

/** A query that passed validation, with timestamps normalized to ISO-8601 UTC. */
export interface NormalizedAggregationQuery {
  readonly filters: readonly LabelFilter[];
  /** Group labels in the order given, time bucket included. */
  readonly groupBy: readonly (AggregationLabel | TimeBucket)[];
  readonly from: string | null;
  readonly to: string | null;
  /** True when `status` is filtered or grouped: synthetic required items then stay out. */
  readonly statusScoped: boolean;
}

const FIXED = new Set<string>(AGGREGATION_LABELS);
/** Metadata keys become JSON paths in SQL, so quotes and backslashes are refused. */
const METADATA_KEY = /^[^"\\]{1,128}$/;

/** Metadata key of a `metadata.<key>` label, or null for a fixed label. */
export function metadataKeyOf(label: string): string | null {
  return label.startsWith('metadata.') ? label.slice('metadata.'.length) : null;
}

function assertLabel(label: unknown, where: 'filters' | 'groupBy'): asserts label is AggregationLabel {
  if (typeof label !== 'string') {
    throw new ModelValidationError(`aggregation ${where} labels must be strings`, { where });
  }
  if (FIXED.has(label)) return;
  const key = metadataKeyOf(label);
  if (key !== null && METADATA_KEY.test(key)) return;
  throw new ModelValidationError(
    `unknown aggregation label '${label}' in ${where}: use one of ${AGGREGATION_LABELS.join(', ')}, ` +
      `metadata.<key>${where === 'groupBy' ? ', time.hour, time.day or time.week' : ''}`,
    { label, where },
  );
}

function normalizeInstant(value: unknown, name: 'from' | 'to'): string | null {
  if (value === undefined || value === null) return null;
  const date = typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
  if (typeof value !== 'string' || Number.isNaN(date.getTime()) || !/(Z|[+-]\d\d:?\d\d)$/i.test(value.trim())) {
    throw new ModelValidationError(`aggregation '${name}' must be an ISO-8601 timestamp with a time zone`, {
      label: name,
    });
  }
  return date.toISOString();
}

/**
 * Validates an aggregation query (contract §10) and returns its normalized form. Throws
 * `ModelValidationError` naming the offending label: unknown labels, time buckets used as
 * filters, two time buckets, duplicate group labels, empty filter lists, `from >= to`, and a
 * query that neither filters to exactly one evaluator nor groups by `evaluator`.
 */
export function validateAggregationQuery(query: AggregationQuery): NormalizedAggregationQuery {
  if (query === null || typeof query !== 'object') {
    throw new ModelValidationError('aggregation query must be an object with filters and groupBy');
  }
  const filters: LabelFilter[] = [];
  const rawFilters: Record<string, unknown> = (query.filters ?? {}) as Record<string, unknown>;
  if (typeof rawFilters !== 'object' || Array.isArray(rawFilters)) {
    throw new ModelValidationError('aggregation filters must be an object of label -> values');
  }
  for (const [label, values] of Object.entries(rawFilters)) {
    if (values === undefined) continue;
    if (isTimeBucket(label) || label.startsWith('time.')) {
      throw new ModelValidationError(`time bucket '${label}' can only be grouped by: use from/to to filter by time`, {
        label,
      });
    }
    assertLabel(label, 'filters');
    if (!Array.isArray(values) || values.length === 0) {
      throw new ModelValidationError(`aggregation filter '${label}' needs a non-empty list of values`, { label });
    }
    for (const value of values) {
      if (value !== null && typeof value !== 'string') {
        throw new ModelValidationError(`aggregation filter '${label}' values must be strings or null`, { label });
      }
    }
    filters.push({ label, values: [...new Set(values as (string | null)[])] });
  }

  const groupBy: (AggregationLabel | TimeBucket)[] = [];
  const rawGroupBy: unknown = query.groupBy ?? [];
  if (!Array.isArray(rawGroupBy)) throw new ModelValidationError('aggregation groupBy must be a list of labels');
  let bucket: string | null = null;
  for (const label of rawGroupBy as unknown[]) {
    if (typeof label === 'string' && label.startsWith('time.')) {
      if (!isTimeBucket(label)) {
        throw new ModelValidationError(`unknown time bucket '${label}': use time.hour, time.day or time.week`, {
          label,
        });
      }
      if (bucket !== null) {
        throw new ModelValidationError(`group by at most one time bucket, got '${bucket}' and '${label}'`, { label });
      }
      bucket = label;
    } else {
      assertLabel(label, 'groupBy');
    }
    if (groupBy.includes(label)) {
      throw new ModelValidationError(`aggregation label '${label}' is grouped by twice`, { label });
    }
    groupBy.push(label);
  }

  // The SQLite store's statement relies on this rule too: with one evaluator per group, a missing
  // requirement never shares a trial or a group's execution with a row (aggregateCountsSql.ts).
  const evaluatorFilter = filters.find((f) => f.label === 'evaluator');
  const singleEvaluator = evaluatorFilter !== undefined && evaluatorFilter.values.length === 1;
  if (!singleEvaluator && !groupBy.includes('evaluator')) {
    throw new ModelValidationError(
      "aggregation needs the 'evaluator' label: filter to exactly one evaluator " +
        "(filters: { evaluator: ['name'] }) or group by 'evaluator' — pass rates of different evaluators do not add up",
      { label: 'evaluator' },
    );
  }

  const from = normalizeInstant(query.from, 'from');
  const to = normalizeInstant(query.to, 'to');
  if (from !== null && to !== null && from >= to) {
    throw new ModelValidationError(`aggregation 'from' (${from}) must be before 'to' (${to})`, { label: 'from' });
  }
  const statusScoped = filters.some((f) => f.label === 'status') || groupBy.includes('status');
  return { filters, groupBy, from, to, statusScoped };
}
