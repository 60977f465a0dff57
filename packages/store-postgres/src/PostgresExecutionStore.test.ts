import { describeExecutionStoreContract } from '../../core/src/store/executionStoreContract.testkit';
import { describeRunShardContract } from '../../core/src/store/contract/runShards.contract.testkit';
import { clusterForTests } from './cluster/clusterForTests.testkit';
import { PostgresExecutionStore } from './PostgresExecutionStore';

const cluster = clusterForTests();

describeExecutionStoreContract(
  'PostgresExecutionStore',
  async () => new PostgresExecutionStore(await cluster().createSchema()),
);
describeRunShardContract(
  'PostgresExecutionStore',
  async () => new PostgresExecutionStore(await cluster().createSchema()),
);
