import type { RunProblem } from './records';
import type { RunProcess } from './runProcess';

/**
 * One shard of a sharded run (`m3 test --run-id ID -- --shard=i/N`): N Jest processes, possibly
 * on N machines, write one run; the run is finished when the last of its shards finishes.
 */
export interface RunShardRecord {
  readonly runId: string;
  /** 1-based, as in Jest's `--shard=i/N`. */
  readonly index: number;
  readonly count: number;
  readonly status: 'running' | 'finished';
  readonly startedAt: string;
  readonly finishedAt: string | null;
  /** True when this shard saw a failure no attempt carries (a file that did not run, a required evaluation). */
  readonly failed: boolean;
  /** The shard's run problems, merged into the run by the shard that finishes it. */
  readonly problems: readonly RunProblem[];
  /** The processes running this shard (its Jest, and `m3 test` around it); see `RunRecord.processes`. */
  readonly processes?: readonly RunProcess[];
  /**
   * Set by the store (never by the caller) on the one shard whose `finished` record completed the
   * run: the store serializes shard writes, so exactly one shard gets it, in the same write. That
   * shard closes the run and its `m3 test` prints the whole run; the others print where it stood.
   */
  readonly closesRun?: boolean;
}

/** The shard that finished the run, once the run is complete. */
export function runClosingShard(shards: readonly RunShardRecord[]): RunShardRecord | undefined {
  return shards.find((s) => s.closesRun === true);
}

/**
 * The record a store saves for `shard` given the run's other shards (call it under the store's
 * shard lock): `closesRun` when this `finished` record is the one that completes the run and no
 * shard closed it before; a caller's own `closesRun` is dropped.
 */
export function shardRecordToSave(shard: RunShardRecord, others: readonly RunShardRecord[]): RunShardRecord {
  const { closesRun: _ignored, ...record } = shard;
  const rest = others.filter((s) => s.index !== shard.index);
  const completes =
    shard.status === 'finished' &&
    runClosingShard(rest) === undefined &&
    allShardsFinished([...rest, record], shard.count);
  return completes ? { ...record, closesRun: true } : record;
}

/** True when every one of the run's `count` shards has finished. */
export function allShardsFinished(shards: readonly RunShardRecord[], count: number): boolean {
  const finished = new Set(shards.filter((s) => s.status === 'finished').map((s) => s.index));
  for (let index = 1; index <= count; index += 1) if (!finished.has(index)) return false;
  return true;
}
