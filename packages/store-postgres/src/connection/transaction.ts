import type { Pool, PoolClient } from 'pg';

/** SQLSTATEs after which the whole transaction may be run again. */
const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock detected

/**
 * Runs `work` in one transaction on a pooled connection: COMMIT when it resolves, ROLLBACK when it
 * throws; a serialization failure or deadlock (the server picked this transaction to abort) runs
 * it again, a few times, from the start.
 */
export async function transaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      const code = (error as { code?: string }).code;
      if (attempt >= 5 || code === undefined || !RETRYABLE.has(code)) throw error;
    } finally {
      client.release();
    }
  }
}
