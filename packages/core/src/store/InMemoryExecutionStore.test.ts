import { describeExecutionStoreContract } from './contract/describeExecutionStoreContract';
import { InMemoryExecutionStore } from './InMemoryExecutionStore';

describeExecutionStoreContract('InMemoryExecutionStore', async () => new InMemoryExecutionStore());
import { describeRunShardContract } from './contract/describeRunShardContract';

describeRunShardContract('InMemoryExecutionStore', async () => new InMemoryExecutionStore());
