import { describeExecutionStoreContract } from './executionStoreContract.testkit';
import { InMemoryExecutionStore } from './InMemoryExecutionStore';

describeExecutionStoreContract('InMemoryExecutionStore', async () => new InMemoryExecutionStore());
import { describeRunShardContract } from './contract/runShards.contract.testkit';

describeRunShardContract('InMemoryExecutionStore', async () => new InMemoryExecutionStore());
