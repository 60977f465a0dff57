import type { TimeBucket } from '../AggregationQuery';

/** The group-only time buckets, in contract order. */
export const TIME_BUCKETS: readonly TimeBucket[] = ['time.hour', 'time.day', 'time.week'];

/** True when `label` names a time bucket. */
export function isTimeBucket(label: string): label is TimeBucket {
  return (TIME_BUCKETS as readonly string[]).includes(label);
}

/**
 * The bucket an instant falls into, in UTC: `YYYY-MM-DDTHH:00:00Z` for hours, `YYYY-MM-DD` for
 * days, and the ISO week's Monday (`YYYY-MM-DD`) for weeks. Mirrors the SQLite store's
 * `strftime`/`date(..., 'weekday 0', '-6 days')` expressions exactly.
 */
export function timeBucketOf(bucket: TimeBucket, isoInstant: string): string {
  const date = new Date(isoInstant);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not an ISO timestamp: ${isoInstant}`);
  const day = date.toISOString().slice(0, 10);
  switch (bucket) {
    case 'time.hour':
      return `${date.toISOString().slice(0, 13)}:00:00Z`;
    case 'time.day':
      return day;
    case 'time.week': {
      const midnight = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
      const sinceMonday = (date.getUTCDay() + 6) % 7;
      return new Date(midnight - sinceMonday * 86_400_000).toISOString().slice(0, 10);
    }
  }
}
