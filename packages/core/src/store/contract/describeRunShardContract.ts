// The run shard contract (contract §10, `recordRunShard`) for a store that coordinates the shards
// of one run across machines, as Postgres does. Like describeExecutionStoreContract, it loads its
// cases (and Jest's globals) only when a test file calls it.
import type { ExecutionStore } from '../ExecutionStore';

/**
 * Registers the run shard contract as a `describe` block named `<name> (run shard contract)`, for a
 * store that implements the optional `recordRunShard` and `listRunShards`. `makeStore` must return
 * a fresh, empty store before each case.
 */
export function describeRunShardContract(name: string, makeStore: () => Promise<ExecutionStore>): void {
  const suite = require('./runShardSuite') as typeof import('./runShardSuite');
  suite.runShardSuite(name, makeStore);
}
