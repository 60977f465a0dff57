import { runCluster } from './runCluster';
import { ThrowawayCluster } from './ThrowawayCluster';

/** The variable naming a Jest run's shared folder (set by e2e/run/globalSetup.js). */
const RUN_DIR_ENV = 'SF_M3_E2E_RUN_DIR';

/**
 * A PostgreSQL cluster for the test file that calls this at module scope, ready before its first
 * test. Inside the repository's Jest run (SF_M3_E2E_RUN_DIR set) it is the run's one shared
 * cluster (runCluster.ts), stopped by the run's globalTeardown; otherwise the file starts its own
 * and stops it (and removes its folder) after its last test. Each test asks it for a fresh
 * database or schema. A machine without PostgreSQL fails here with the install fix: never a mock.
 */
export function clusterForTests(env: NodeJS.ProcessEnv = process.env): () => ThrowawayCluster {
  const runDir = env[RUN_DIR_ENV];
  const shared = runDir !== undefined && runDir !== '';
  let cluster: ThrowawayCluster | null = null;
  beforeAll(async () => {
    cluster = shared ? await runCluster(runDir) : await ThrowawayCluster.start();
  }, 120_000);
  afterAll(async () => {
    if (!shared) await cluster?.stop();
  }, 60_000);
  return () => {
    if (cluster === null) throw new Error('the PostgreSQL test cluster is not running (beforeAll failed)');
    return cluster;
  };
}
