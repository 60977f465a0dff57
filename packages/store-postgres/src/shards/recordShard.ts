import type { RunShardRecord } from '@sf-m3/core';
import { shardRecordToSave } from '@sf-m3/core/store';
import type { Pool, PoolClient } from 'pg';

/**
 * Upserts one shard's row and returns every shard of its run, inside the caller's transaction and
 * under the run's advisory lock: of shards finishing at once, exactly one sees all N finished.
 */
export async function recordShard(db: PoolClient, shard: RunShardRecord): Promise<RunShardRecord[]> {
  await db.query("SELECT pg_advisory_xact_lock(hashtextextended('sf-m3 run ' || $1, 0))", [shard.runId]);
  const before = await db.query<{ record_json: string }>('SELECT record_json FROM run_shards WHERE run_id = $1', [
    shard.runId,
  ]);
  const others = before.rows.map((row) => JSON.parse(row.record_json) as RunShardRecord);
  // closesRun is decided here, under the lock, in the same write that completes the run.
  const record = shardRecordToSave(shard, others);
  await db.query(
    `INSERT INTO run_shards (run_id, shard_index, shard_count, status, started_at, finished_at, record_json)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (run_id, shard_index) DO UPDATE SET shard_count = excluded.shard_count, status = excluded.status,
       started_at = excluded.started_at, finished_at = excluded.finished_at, record_json = excluded.record_json`,
    [
      record.runId,
      record.index,
      record.count,
      record.status,
      record.startedAt,
      record.finishedAt,
      JSON.stringify(record),
    ],
  );
  const { rows } = await db.query<{ record_json: string }>(
    'SELECT record_json FROM run_shards WHERE run_id = $1 ORDER BY shard_index',
    [shard.runId],
  );
  return rows.map((row) => JSON.parse(row.record_json) as RunShardRecord);
}

/** Every shard row of run `runId`, by shard index. */
export async function listRunShards(pool: Pool, runId: string): Promise<RunShardRecord[]> {
  const { rows } = await pool.query<{ record_json: string }>(
    'SELECT record_json FROM run_shards WHERE run_id = $1 ORDER BY shard_index',
    [runId],
  );
  return rows.map((row) => JSON.parse(row.record_json) as RunShardRecord);
}
