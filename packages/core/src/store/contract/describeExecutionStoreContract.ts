// The ExecutionStore contract suite for any store, ours or a third party's (contract §10): a Jest
// test file calls it with a factory, and every case runs against fresh stores from it. The cases
// live in executionStoreSuite.ts, loaded here on the call, so `require('@sf-m3/core/store')` in a
// store's own code never loads Jest.
import type { ExecutionStore } from '../ExecutionStore';

/**
 * Registers the ExecutionStore contract as a `describe` block named `<name> (ExecutionStore
 * contract)`. `makeStore` is called before each case and must return a fresh, empty store; each
 * store is closed after its case. Call it at the top level of a Jest test file.
 */
export function describeExecutionStoreContract(name: string, makeStore: () => Promise<ExecutionStore>): void {
  const suite = require('./executionStoreSuite') as typeof import('./executionStoreSuite');
  suite.executionStoreSuite(name, makeStore);
}
