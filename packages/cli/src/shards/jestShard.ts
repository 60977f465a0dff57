// postgres lane: the shard Jest runs, read from the arguments after `--` the way Jest reads them.
import { UsageError } from '../options/UsageError';

/** One shard of a run: 1-based index of count. */
export interface JestShard {
  readonly index: number;
  readonly count: number;
}

/** `--shard=i/N` or `--shard i/N` among Jest's arguments; null when absent or N is 1. */
export function jestShard(jestArgs: readonly string[]): JestShard | null {
  let value: string | undefined;
  for (let i = 0; i < jestArgs.length; i += 1) {
    const arg = jestArgs[i]!;
    if (arg.startsWith('--shard=')) value = arg.slice('--shard='.length);
    else if (arg === '--shard') value = jestArgs[i + 1];
  }
  if (value === undefined) return null;
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || index < 1 || count < index) {
    throw new UsageError('--shard', `must be INDEX/COUNT with 1 <= INDEX <= COUNT, e.g. --shard=2/3 (got ${value})`);
  }
  return count === 1 ? null : { index, count };
}
