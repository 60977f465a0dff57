import { StoreError } from '@sf-m3/core/store';
import { sqliteErrorCode, type SqliteConnection } from './SqliteConnection';

/** How writers wait for each other beyond SQLite's own busy timeout. */
export interface RetryPolicy {
  /** Attempts in all (first try included). */
  readonly attempts: number;
  /** First backoff in ms; doubles each retry, with full jitter, up to `maxDelayMs`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/** Default policy: with a 5 s busy timeout per try this rides out minutes of contention. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 12, baseDelayMs: 20, maxDelayMs: 2_000 };

const BUSY_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED']);

/** True for the lock errors a retry can fix. */
export function isBusyError(error: unknown): boolean {
  const code = sqliteErrorCode(error);
  return code !== null && BUSY_CODES.has(code);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` inside `BEGIN IMMEDIATE ... COMMIT` (the write lock is taken up front, so the
 * transaction can never deadlock on upgrade). Any error rolls back; `SQLITE_BUSY`/`SQLITE_LOCKED`
 * are retried with jittered exponential backoff, so `work` must be safe to run again.
 */
export async function immediateTransaction<T>(
  connection: SqliteConnection,
  work: () => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    let began = false;
    try {
      await connection.exec('BEGIN IMMEDIATE');
      began = true;
      const result = await work();
      await connection.exec('COMMIT');
      return result;
    } catch (error) {
      if (began) await connection.exec('ROLLBACK').catch(() => undefined);
      if (!isBusyError(error)) throw error;
      if (attempt >= policy.attempts) {
        throw new StoreError(
          `the database stayed locked by other writers through ${policy.attempts} attempts: ` +
            'retry later or reduce the number of concurrent writers',
          { attempts: policy.attempts },
          { cause: error },
        );
      }
      const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
      await sleep(Math.random() * ceiling);
    }
  }
}
