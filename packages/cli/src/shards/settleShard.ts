// postgres lane: what `m3 test` does after Jest ran one shard of a run.
import type { ExecutionStore, RunProblem, RunRecord } from '@sf-m3/core';
import { allShardsFinished, runClosingShard } from '@sf-m3/core/internal';
import type { JestExit } from '../jest/spawnJest';
import type { JestShard } from './jestShard';

/** Where the run stands once this shard is done. */
export interface SettledShard {
  /** True when every shard has finished: the run is closed (or closes now) like an unsharded one. */
  readonly runFinished: boolean;
  readonly finishedShards: number;
  /** The run, with every shard's problems when this shard is the one that finishes it. */
  readonly run: RunRecord;
}

/**
 * Records this shard as finished if Jest ended before its global teardown could (a crash or a
 * signal), with the problem saying so. A store that does not coordinate shards (SQLite) settles
 * as finished: each process closes the run as it would unsharded.
 */
export async function settleShard(
  store: ExecutionStore,
  run: RunRecord,
  shard: JestShard,
  exit: JestExit,
): Promise<SettledShard> {
  if (store.listRunShards === undefined || store.recordRunShard === undefined) {
    return { runFinished: true, finishedShards: shard.count, run };
  }
  let shards = await store.listRunShards(run.runId);
  const mine = shards.find((s) => s.index === shard.index);
  if (mine?.status !== 'finished') {
    const how = exit.signal !== null ? `was stopped by ${exit.signal}` : `exited with status ${String(exit.code)}`;
    const problem: RunProblem = {
      kind: 'jest_exit',
      testPath: null,
      message: `shard ${shard.index}/${shard.count}: Jest ${how} before the shard finished`,
    };
    shards = await store.recordRunShard({
      runId: run.runId,
      index: shard.index,
      count: shard.count,
      status: 'finished',
      startedAt: mine?.startedAt ?? run.startedAt,
      finishedAt: new Date().toISOString(),
      failed: true,
      problems: [...(mine?.problems ?? []), problem],
    });
    if (runClosingShard(shards)?.index === shard.index && run.status === 'running') {
      // This shard finishes the run although its teardown never ran: carry every shard's problems.
      const problems = shards.flatMap((s) => s.problems);
      return { runFinished: true, finishedShards: shard.count, run: { ...run, problems } };
    }
  }
  const finishedShards = shards.filter((s) => s.status === 'finished').length;
  // Exactly one shard closes the run: the store marks the record that completed it (`closesRun`).
  // A store that does not mark it falls back to "the run is closed or every shard finished".
  const closer = runClosingShard(shards);
  const runFinished =
    closer !== undefined
      ? closer.index === shard.index
      : run.status !== 'running' || allShardsFinished(shards, shard.count);
  return { runFinished, finishedShards, run };
}
