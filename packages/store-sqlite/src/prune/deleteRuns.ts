import type { PruneOptions, PruneReport, PruneSelection, RunRecord } from '@sf-m3/core';
import { selectPrunedRuns } from '@sf-m3/core/store';
import type { SqliteConnection } from '../SqliteConnection';
import { recomputeLineages } from './recomputeLineages';

/** The pruned rows, gathered in temp tables before anything is deleted. */
const GATHER = `
  DROP TABLE IF EXISTS temp.prune_attempts;
  DROP TABLE IF EXISTS temp.prune_executions;
  DROP TABLE IF EXISTS temp.prune_lineages;
  DROP TABLE IF EXISTS temp.prune_blobs;
  DROP TABLE IF EXISTS temp.prune_suites;
  CREATE TEMP TABLE prune_attempts AS
    SELECT attempt_id, json_extract(record_json, '$.suiteId') AS suite_id
      FROM main.attempts WHERE run_id IN (SELECT run_id FROM temp.prune_runs);
  -- An execution belongs to its run; one saved without a run id belongs to its attempt's run.
  CREATE TEMP TABLE prune_executions AS
    SELECT execution_id, suite_name FROM main.executions
     WHERE run_id IN (SELECT run_id FROM temp.prune_runs)
        OR (run_id IS NULL AND attempt_id IN (SELECT attempt_id FROM temp.prune_attempts));
  CREATE UNIQUE INDEX temp.prune_executions_id ON prune_executions(execution_id);
  CREATE TEMP TABLE prune_lineages AS
    SELECT DISTINCT lineage_id FROM main.evaluations
     WHERE run_id IN (SELECT run_id FROM temp.prune_runs)
        OR execution_id IN (SELECT execution_id FROM temp.prune_executions);
  CREATE TEMP TABLE prune_blobs AS
    SELECT DISTINCT sha256 FROM main.execution_blobs
     WHERE execution_id IN (SELECT execution_id FROM temp.prune_executions);
  CREATE TEMP TABLE prune_suites AS
    SELECT suite_id FROM main.suites
     WHERE suite_id IN (SELECT suite_id FROM temp.prune_attempts)
        OR name IN (SELECT suite_name FROM temp.prune_executions);
`;

/**
 * Deletes in dependency order. Executions' children (required evaluators, traces, events, event
 * chunks, evidence links, sessions, turns) go by `ON DELETE CASCADE`; they are named here too so
 * nothing depends on the connection's foreign-key setting. A blob or suite goes only when no
 * remaining row uses it.
 */
const DELETE = `
  DELETE FROM main.evaluations
   WHERE run_id IN (SELECT run_id FROM temp.prune_runs)
      OR execution_id IN (SELECT execution_id FROM temp.prune_executions);
  DELETE FROM main.attempt_executions
   WHERE attempt_id IN (SELECT attempt_id FROM temp.prune_attempts)
      OR execution_id IN (SELECT execution_id FROM temp.prune_executions);
  DELETE FROM main.attempts WHERE attempt_id IN (SELECT attempt_id FROM temp.prune_attempts);
  DELETE FROM main.execution_required WHERE execution_id IN (SELECT execution_id FROM temp.prune_executions);
  DELETE FROM main.traces WHERE execution_id IN (SELECT execution_id FROM temp.prune_executions);
  DELETE FROM main.events WHERE execution_id IN (SELECT execution_id FROM temp.prune_executions);
  DELETE FROM main.event_chunks WHERE execution_id IN (SELECT execution_id FROM temp.prune_executions);
  DELETE FROM main.execution_blobs WHERE execution_id IN (SELECT execution_id FROM temp.prune_executions);
  DELETE FROM main.sessions WHERE execution_id IN (SELECT execution_id FROM temp.prune_executions);
  DELETE FROM main.turns WHERE execution_id IN (SELECT execution_id FROM temp.prune_executions);
  DELETE FROM main.executions WHERE execution_id IN (SELECT execution_id FROM temp.prune_executions);
  DELETE FROM main.judge_requests WHERE run_id IN (SELECT run_id FROM temp.prune_runs);
  DELETE FROM main.runs WHERE run_id IN (SELECT run_id FROM temp.prune_runs);
  -- execution_blobs.sha256 references blobs without an index of its own (no hot path needs one),
  -- so SQLite's foreign-key check of each deleted blob would scan it: index it for this delete only.
  CREATE INDEX main.prune_execution_blobs_sha256 ON execution_blobs(sha256);
  DELETE FROM main.blobs
   WHERE sha256 IN (SELECT sha256 FROM temp.prune_blobs)
     AND sha256 NOT IN (SELECT sha256 FROM main.execution_blobs);
  DROP INDEX main.prune_execution_blobs_sha256;
  DELETE FROM main.suites
   WHERE suite_id IN (SELECT suite_id FROM temp.prune_suites)
     AND suite_id NOT IN (SELECT json_extract(record_json, '$.suiteId') FROM main.attempts
                           WHERE json_extract(record_json, '$.suiteId') IS NOT NULL)
     AND name NOT IN (SELECT suite_name FROM main.executions WHERE suite_name IS NOT NULL)
     AND name NOT IN (SELECT suite_name FROM main.evaluations WHERE suite_name IS NOT NULL);
`;

const CLEAN_UP = `
  DROP TABLE temp.prune_runs;
  DROP TABLE temp.prune_attempts;
  DROP TABLE temp.prune_executions;
  DROP TABLE temp.prune_lineages;
  DROP TABLE temp.prune_blobs;
  DROP TABLE temp.prune_suites;
`;

async function count(db: SqliteConnection, sql: string): Promise<number> {
  return Number((await db.get<{ n: number }>(sql))?.n ?? 0);
}

/**
 * Picks the runs `selection` names and, unless `dryRun`, deletes them with every row only they
 * reference; runs inside the caller's write transaction, so a failure deletes nothing.
 */
export async function deleteRuns(
  db: SqliteConnection,
  selection: PruneSelection,
  options: PruneOptions,
): Promise<PruneReport> {
  const rows = await db.all<{ record_json: string }>(
    'SELECT record_json FROM runs ORDER BY started_at DESC, run_id DESC',
  );
  const runs = rows.map((row) => JSON.parse(row.record_json) as RunRecord);
  const { pruned, skipped } = selectPrunedRuns(runs, selection, options);
  await db.exec('DROP TABLE IF EXISTS temp.prune_runs; CREATE TEMP TABLE prune_runs (run_id TEXT PRIMARY KEY)');
  await db.run('INSERT INTO temp.prune_runs SELECT value FROM json_each(?)', [
    JSON.stringify(pruned.map((r) => r.runId)),
  ]);
  await db.exec(GATHER);
  const executionCount = await count(db, 'SELECT COUNT(*) AS n FROM temp.prune_executions');
  const evaluationCount = await count(
    db,
    `SELECT COUNT(*) AS n FROM main.evaluations
      WHERE is_latest = 1 AND (run_id IN (SELECT run_id FROM temp.prune_runs)
                               OR execution_id IN (SELECT execution_id FROM temp.prune_executions))`,
  );
  if (options.dryRun !== true && pruned.length > 0) {
    await db.exec(DELETE);
    await recomputeLineages(db, 'temp.prune_lineages');
  }
  await db.exec(CLEAN_UP);
  return {
    dryRun: options.dryRun === true,
    runIds: pruned.map((run) => run.runId),
    executionCount,
    evaluationCount,
    ...(skipped.length > 0 && { skippedRunIds: skipped.map((run) => run.runId) }),
  };
}
