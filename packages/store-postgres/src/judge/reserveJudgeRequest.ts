import type { Pool } from 'pg';

/**
 * Counts one judge request for `runId` if fewer than `limit` were counted, in one statement: the
 * row lock of the upsert serialises processes, so N processes never reserve more than `limit`.
 */
export async function reserveJudgeRequest(pool: Pool, runId: string, limit: number): Promise<boolean> {
  if (!(limit >= 1)) return false;
  const { rowCount } = await pool.query(
    `INSERT INTO run_judge_requests AS r (run_id, reserved) VALUES ($1, 1)
     ON CONFLICT (run_id) DO UPDATE SET reserved = r.reserved + 1 WHERE r.reserved < $2`,
    [runId, Math.floor(limit)],
  );
  return rowCount === 1;
}

/** The judge requests counted for `runId` so far (0 when none was). */
export async function countJudgeRequests(pool: Pool, runId: string): Promise<number> {
  const { rows } = await pool.query<{ reserved: number }>('SELECT reserved FROM run_judge_requests WHERE run_id = $1', [
    runId,
  ]);
  return rows.length === 0 ? 0 : Number(rows[0]!.reserved);
}
