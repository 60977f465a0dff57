import { Redactor } from '@sf-m3/core/internal';
import type { PoolConfig } from 'pg';

/** Where a store connects: a `postgres://` URL or a `pg` pool configuration. */
export type PostgresLocation = string | PoolConfig;

/** True when `value` is a PostgreSQL connection URL (`postgres://` or `postgresql://`). */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value.trim());
}

/** The secrets of a location: the URL's password and user info, or the config's password. */
export function locationSecrets(location: PostgresLocation): string[] {
  if (typeof location !== 'string') return typeof location.password === 'string' ? [location.password] : [];
  try {
    const url = new URL(location);
    return [url.password, decodeURIComponent(url.password)].filter((s) => s.length > 0);
  } catch {
    return [];
  }
}

/**
 * The location for messages and summaries, credentials replaced by `[REDACTED]`:
 * `postgres://[REDACTED]@db.internal:5432/m3`. A pool config shows host, port and database only.
 */
export function describeDatabase(location: PostgresLocation): string {
  if (typeof location === 'string') return new Redactor(locationSecrets(location)).redactText(location);
  const host = location.host ?? 'localhost';
  const port = location.port ?? 5432;
  return `postgres://${host}:${String(port)}/${location.database ?? ''}`;
}
