// The judge budget's counter in SQLite (`ExecutionStore.reserveJudgeRequest`): one UPSERT that
// inserts the run's first request or adds one while under the limit. SQLite runs a statement
// atomically under the write lock, so the check and the count cannot be split by another process.
import type { SqliteConnection } from '../SqliteConnection';

const RESERVE_SQL =
  'INSERT INTO judge_requests (run_id, used) VALUES (?, 1) ' +
  'ON CONFLICT (run_id) DO UPDATE SET used = used + 1 WHERE used < ?';

/**
 * Counts one judge request for `runId` if fewer than `limit` (>= 1) were counted; true when it
 * was counted. Run it inside the store's write transaction.
 */
export async function reserveJudgeRequestRow(db: SqliteConnection, runId: string, limit: number): Promise<boolean> {
  const { changes } = await db.run(RESERVE_SQL, [runId, limit]);
  return changes === 1;
}

/** The judge requests counted for `runId` so far (0 when none was). */
export async function countJudgeRequestRows(db: SqliteConnection, runId: string): Promise<number> {
  const row = await db.get<{ used: number }>('SELECT used FROM judge_requests WHERE run_id = ?', [runId]);
  return row?.used ?? 0;
}
