import { describeExecutionStoreContract } from './executionStoreContract.testkit';
import { InMemoryExecutionStore } from './InMemoryExecutionStore';

describeExecutionStoreContract('InMemoryExecutionStore', async () => new InMemoryExecutionStore());
