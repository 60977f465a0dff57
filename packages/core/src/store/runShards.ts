import type { RunProblem } from './records';

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
}

/** True when every one of the run's `count` shards has finished. */
export function allShardsFinished(shards: readonly RunShardRecord[], count: number): boolean {
  const finished = new Set(shards.filter((s) => s.status === 'finished').map((s) => s.index));
  for (let index = 1; index <= count; index += 1) if (!finished.has(index)) return false;
  return true;
}
