// postgres lane: a run written by N Jest processes (`--shard=i/N`, one run id). Each shard saves
// its own state; the shard that finishes last (the store tells exactly one of them) closes the run
// from every shard's attempts and problems. Until then the run stays `running`, and no shard
// interrupts work that another shard may still be doing.
import type { Config } from '@jest/types';
import type { ExecutionStore, RunProblem, RunRecord, RunShardRecord } from '@sf-m3/core';
import { allShardsFinished, runClosingShard } from '@sf-m3/core/internal';
import type { GlobalRunState } from '../runLifecycle';

/** The shard of this Jest run, from `--shard=i/N`, or null when Jest runs every file. */
export function shardOf(globalConfig: Config.GlobalConfig): GlobalRunState['shard'] {
  const shard = (globalConfig as { shard?: { shardIndex: number; shardCount: number } }).shard;
  if (shard === undefined || shard === null || shard.shardCount <= 1) return null;
  return { index: shard.shardIndex, count: shard.shardCount };
}

/** True when the store coordinates shards (PostgreSQL, in-memory); SQLite files are merged with `m3 merge`. */
export function coordinates(
  store: ExecutionStore,
): store is ExecutionStore & Required<Pick<ExecutionStore, 'recordRunShard'>> {
  return typeof store.recordRunShard === 'function';
}

/** Global setup of a shard: creates the run unless another shard did, and marks this shard running. */
export async function startShard(store: ExecutionStore, state: GlobalRunState, run: RunRecord): Promise<void> {
  const shard = state.shard!;
  if ((await store.getRun(run.runId)) === null) await store.saveRun(run);
  await store.recordRunShard!({
    runId: run.runId,
    index: shard.index,
    count: shard.count,
    status: 'running',
    startedAt: state.startedAt,
    finishedAt: null,
    failed: false,
    problems: [],
    processes: state.processes,
  });
}

/**
 * Global teardown of a shard: saves it finished. Returns null while other shards still run, else
 * (this shard finished the run) whether any shard failed and every shard's problems.
 */
export async function finishShard(
  store: ExecutionStore,
  state: GlobalRunState,
  failed: boolean,
  problems: readonly RunProblem[],
): Promise<{ failed: boolean; problems: RunProblem[] } | null> {
  const shard = state.shard!;
  const record: RunShardRecord = {
    runId: state.runId,
    index: shard.index,
    count: shard.count,
    status: 'finished',
    startedAt: state.startedAt,
    finishedAt: new Date().toISOString(),
    failed,
    problems,
  };
  const shards = await store.recordRunShard!(record);
  // The store marks the one record that completed the run; a store that does not, falls back.
  const closer = runClosingShard(shards);
  if (closer !== undefined ? closer.index !== shard.index : !allShardsFinished(shards, shard.count)) return null;
  return { failed: shards.some((s) => s.failed), problems: shards.flatMap((s) => s.problems) };
}
