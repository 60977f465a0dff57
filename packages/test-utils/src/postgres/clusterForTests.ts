import { ThrowawayCluster } from './ThrowawayCluster';

/**
 * One throwaway cluster for the test file that calls this at module scope: started before its
 * first test, stopped (and its folder removed) after its last. Each test asks it for a fresh
 * database. A machine without PostgreSQL fails here with the install fix: never a mock.
 */
export function clusterForTests(): () => ThrowawayCluster {
  let cluster: ThrowawayCluster | null = null;
  beforeAll(async () => {
    cluster = await ThrowawayCluster.start();
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);
  return () => {
    if (cluster === null) throw new Error('the PostgreSQL test cluster is not running (beforeAll failed)');
    return cluster;
  };
}
