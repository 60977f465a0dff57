/**
 * @sf-m3/jest-environment: the Jest environment (default export, for `testEnvironment`),
 * `describeM3` / `m3Kit` for `injectGlobals: false`, and the pieces the `m3` CLI reads.
 */
import M3Environment from './M3Environment';

export default M3Environment;
export { M3Environment, M3Environment as TestEnvironment };
export { describeM3, getM3Kit, m3Kit, testM3 } from './runtime';
export { expandTestM3 } from './testM3';
export type { TestM3, TestM3Context, TestM3Function } from './testM3';
export type { DescribeM3, DescribeM3Function, M3SuiteOptions } from './runtimeBridge';
export type { DescribeM3Fuzz, M3FuzzOptions } from './describeM3Fuzz';
export { MISSING_SUITE_MESSAGE } from './AttemptRecorder';
export { resolvePersistence, RESULTS_DB_ENV } from './persistenceConfig';
export type { PersistenceConfig } from './persistenceConfig';
export {
  ARGV_ENV,
  EXECUTION_TIMEOUT_ENV,
  HARNESS_ENV,
  RUN_ID_ENV,
  RUN_STATE_DIR_ENV,
  SERVERS_ENV,
  TRIALS_ENV,
  readRunContext,
} from './runContext';
export type { RunContext } from './runContext';
export { normalizeSuiteName, MAX_SUITE_NAME_LENGTH } from './suiteName';
