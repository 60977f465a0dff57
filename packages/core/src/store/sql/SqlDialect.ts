import type { TimeBucket } from '../AggregationQuery';

/**
 * Where the SQL stores' shared statements differ by database: how a value is bound, how a JSON
 * metadata key, a typed NULL, a boolean column and a UTC time bucket are spelled. Each store
 * supplies its own (SQLite in `store-sqlite`, PostgreSQL in `store-postgres`); the shared column
 * maps and aggregation sources of this folder read everything else from one place (contract §10).
 */
export interface SqlDialect {
  /** The column of `executions` and `evaluations` that holds the metadata labels as JSON. */
  readonly metadataColumn: string;
  /** NULL where a text value is expected (typed where the database needs it). */
  readonly nullText: string;
  /** NULL where a real number is expected. */
  readonly nullReal: string;
  /** A boolean column as a condition (`e.is_latest = 1` in SQLite, `e.is_latest` in PostgreSQL). */
  isTrue(column: string): string;
  /** Appends `value` to `params` and returns the placeholder that binds it. */
  bind(params: unknown[], value: unknown): string;
  /** The condition that `column` is one of `values` (at least one), bound in `params`. */
  inList(column: string, values: readonly string[], params: unknown[]): string;
  /** The text at metadata key `key` of the JSON column `metadata` (the key is validated). */
  metadataField(metadata: string, key: string, params: unknown[]): string;
  /** The UTC bucket of the canonical ISO-8601 instant in `time`, as text. */
  timeBucket(bucket: TimeBucket, time: string): string;
}
