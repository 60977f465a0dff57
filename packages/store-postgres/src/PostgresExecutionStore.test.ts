import { describeExecutionStoreContract, describeRunShardContract } from '@sf-m3/core/store';
import { clusterForTests } from '@sf-m3/test-utils/postgres';
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
