import type { PruneOptions, PruneReport, PruneSelection, RunRecord } from '@sf-m3/core';
import { selectPrunedRuns } from '@sf-m3/core/store';
import type { Pool, PoolClient } from 'pg';
import { transaction } from '../connection/transaction';

/** The runs `selection` removes (core's `selectPrunedRuns`, so every store picks the same runs). */
async function selectedRuns(
  db: PoolClient,
  selection: PruneSelection,
  options: PruneOptions,
): Promise<{ runIds: string[]; skippedRunIds: string[] }> {
  const { rows } = await db.query<{ record_json: string }>(
    'SELECT record_json FROM runs ORDER BY started_at DESC, run_id DESC',
  );
  const runs = rows.map((r) => JSON.parse(r.record_json) as RunRecord);
  const { pruned, skipped } = selectPrunedRuns(runs, selection, options);
  return { runIds: pruned.map((run) => run.runId), skippedRunIds: skipped.map((run) => run.runId) };
}

async function databaseBytes(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
  return Number(rows[0]!.bytes);
}

/**
 * Deletes whole runs and the rows only they reference — their attempts, executions (with traces,
 * sessions, turns, requirements and evidence links), evaluations, shard and judge-budget rows,
 * lineages left without rows and evidence blobs no execution links any more — in one transaction,
 * then VACUUMs the tables to make the space reusable. A suite goes only when nothing kept uses it.
 */
export async function pruneRuns(
  pool: Pool,
  selection: PruneSelection,
  options: PruneOptions = {},
): Promise<PruneReport> {
  const dryRun = options.dryRun === true;
  const bytesBefore = await databaseBytes(pool);
  const counted = await transaction(pool, async (db) => {
    const { runIds, skippedRunIds } = await selectedRuns(db, selection, options);
    const attempts = await db.query<{ attempt_id: string; suite_id: number | null }>(
      `SELECT attempt_id, (record_json::jsonb ->> 'suiteId')::integer AS suite_id
         FROM attempts WHERE run_id = ANY($1::text[])`,
      [runIds],
    );
    const attemptIds = attempts.rows.map((r) => r.attempt_id);
    const executions = await db.query<{ execution_id: string; suite_name: string | null }>(
      `SELECT execution_id, suite_name FROM executions
        WHERE run_id = ANY($1::text[]) OR (run_id IS NULL AND attempt_id = ANY($2::text[]))`,
      [runIds, attemptIds],
    );
    const executionIds = executions.rows.map((r) => r.execution_id);
    // The latest row of each lineage, as listEvaluations counts them (the same on every store).
    const evaluations = await db.query<{ n: string }>(
      `SELECT COUNT(*) AS n FROM evaluations
        WHERE is_latest AND (run_id = ANY($1::text[]) OR execution_id = ANY($2::text[]))`,
      [runIds, executionIds],
    );
    const report = {
      runIds,
      executionCount: executionIds.length,
      evaluationCount: Number(evaluations.rows[0]!.n),
      ...(skippedRunIds.length > 0 && { skippedRunIds }),
    };
    if (dryRun || runIds.length === 0) return report;
    const suiteIds = attempts.rows.map((r) => r.suite_id).filter((id): id is number => id !== null);
    const suiteNames = executions.rows.map((r) => r.suite_name).filter((n): n is string => n !== null);
    const lineages = await db.query<{ lineage_id: string }>(
      `DELETE FROM evaluations WHERE run_id = ANY($1::text[]) OR execution_id = ANY($2::text[])
       RETURNING lineage_id::text`,
      [runIds, executionIds],
    );
    await db.query(
      `DELETE FROM evaluation_lineages l WHERE l.lineage_id = ANY($1::bigint[])
         AND NOT EXISTS (SELECT 1 FROM evaluations e WHERE e.lineage_id = l.lineage_id)`,
      [[...new Set(lineages.rows.map((r) => r.lineage_id))]],
    );
    await db.query('DELETE FROM executions WHERE execution_id = ANY($1::text[])', [executionIds]);
    await db.query('DELETE FROM attempt_executions WHERE execution_id = ANY($1::text[])', [executionIds]);
    await db.query('DELETE FROM attempts WHERE run_id = ANY($1::text[])', [runIds]);
    for (const table of ['run_shards', 'run_judge_requests', 'runs']) {
      await db.query(`DELETE FROM ${table} WHERE run_id = ANY($1::text[])`, [runIds]);
    }
    await db.query(
      'DELETE FROM blobs b WHERE NOT EXISTS (SELECT 1 FROM execution_blobs eb WHERE eb.sha256 = b.sha256)',
    );
    // Suites the pruned rows used, when no remaining attempt, execution or evaluation uses them.
    await db.query(
      `DELETE FROM suites s WHERE (s.suite_id = ANY($1::integer[]) OR s.name = ANY($2::text[]))
         AND NOT EXISTS (SELECT 1 FROM attempts a WHERE (a.record_json::jsonb ->> 'suiteId')::integer = s.suite_id)
         AND NOT EXISTS (SELECT 1 FROM executions e WHERE e.suite_name = s.name)
         AND NOT EXISTS (SELECT 1 FROM evaluations v WHERE v.suite_name = s.name)`,
      [suiteIds, suiteNames],
    );
    return report;
  });
  if (dryRun) return { dryRun, ...counted, bytesBefore };
  for (const table of ['evaluations', 'evaluation_lineages', 'executions', 'traces', 'blobs', 'attempts']) {
    // Makes the space reusable; a user who does not own the tables leaves it to autovacuum.
    await pool.query(`VACUUM ${table}`).catch(() => undefined);
  }
  return { dryRun, ...counted, bytesBefore, bytesAfter: await databaseBytes(pool) };
}
