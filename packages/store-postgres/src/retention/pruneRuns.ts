import { canonicalInstant, ModelValidationError } from '@sf-m3/core';
import type { Pool, PoolClient } from 'pg';
import { transaction } from '../connection/transaction';

/** Which runs to delete: all but the newest `keepRuns`, or those started before `olderThan`. */
export type PostgresPruneSelection = { readonly keepRuns: number } | { readonly olderThan: string };

/** What a prune deleted (or, dry, would delete). */
export interface PostgresPruneReport {
  readonly dryRun: boolean;
  readonly runIds: string[];
  readonly executionCount: number;
  readonly evaluationCount: number;
  readonly bytesBefore?: number;
  readonly bytesAfter?: number;
}

async function selectedRuns(db: PoolClient, selection: PostgresPruneSelection): Promise<string[]> {
  if ('keepRuns' in selection) {
    if (!Number.isInteger(selection.keepRuns) || selection.keepRuns < 0) {
      throw new ModelValidationError('keepRuns must be a whole number of runs to keep, 0 or more');
    }
    const { rows } = await db.query<{ run_id: string }>(
      'SELECT run_id FROM runs ORDER BY started_at DESC, run_id DESC OFFSET $1',
      [selection.keepRuns],
    );
    return rows.map((r) => r.run_id);
  }
  const before = canonicalInstant(selection.olderThan, 'olderThan');
  const { rows } = await db.query<{ run_id: string }>(
    'SELECT run_id FROM runs WHERE started_at < $1 ORDER BY started_at',
    [before],
  );
  return rows.map((r) => r.run_id);
}

async function databaseBytes(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
  return Number(rows[0]!.bytes);
}

/**
 * Deletes whole runs and the rows only they reference — their attempts, executions (with traces,
 * sessions, turns, requirements and evidence links), evaluations, shard and judge-budget rows,
 * lineages left without rows and evidence blobs no execution links any more — in one transaction,
 * then VACUUMs the tables to make the space reusable. Suites stay (they are shared by name).
 */
export async function pruneRuns(
  pool: Pool,
  selection: PostgresPruneSelection,
  options: { dryRun?: boolean } = {},
): Promise<PostgresPruneReport> {
  const dryRun = options.dryRun === true;
  const bytesBefore = await databaseBytes(pool);
  const counted = await transaction(pool, async (db) => {
    const runIds = await selectedRuns(db, selection);
    const executions = await db.query<{ execution_id: string }>(
      'SELECT execution_id FROM executions WHERE run_id = ANY($1::text[])',
      [runIds],
    );
    const executionIds = executions.rows.map((r) => r.execution_id);
    const evaluations = await db.query<{ n: string }>(
      'SELECT COUNT(*) AS n FROM evaluations WHERE run_id = ANY($1::text[]) OR execution_id = ANY($2::text[])',
      [runIds, executionIds],
    );
    const report = { runIds, executionCount: executionIds.length, evaluationCount: Number(evaluations.rows[0]!.n) };
    if (dryRun || runIds.length === 0) return report;
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
    return report;
  });
  if (dryRun) return { dryRun, ...counted, bytesBefore };
  for (const table of ['evaluations', 'evaluation_lineages', 'executions', 'traces', 'blobs', 'attempts']) {
    // Makes the space reusable; a user who does not own the tables leaves it to autovacuum.
    await pool.query(`VACUUM ${table}`).catch(() => undefined);
  }
  return { dryRun, ...counted, bytesBefore, bytesAfter: await databaseBytes(pool) };
}
