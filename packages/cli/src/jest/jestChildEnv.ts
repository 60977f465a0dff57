// The environment `m3 test` gives Jest. The sf-m3 preset's global setup and test environment read
// these variables to save the run, its attempts, executions and evaluations into the database.
import { applyCassetteFlags } from '../cassettes/cassetteFlags';
import { applyJudgeMaxRequests } from '../judgeBudget/judgeMaxRequestsOption';
import type { TestOptions } from '../options/testOptions';

/** Names of the variables the CLI sets for the preset. */
export const M3_ENV = {
  resultsDb: 'M3_RESULTS_DB',
  runId: 'M3_RUN_ID',
  argv: 'M3_ARGV',
  trials: 'M3_TRIALS',
  protocols: 'M3_PROTOCOLS',
  servers: 'M3_SERVERS',
  harness: 'M3_HARNESS',
  executionTimeoutMs: 'M3_EXECUTION_TIMEOUT_MS',
  secretEnvNames: 'M3_SECRET_ENV_NAMES',
  judgeMaxRequests: 'M3_JUDGE_MAX_REQUESTS',
  cliPid: 'M3_CLI_PID',
  fuzzSeed: 'M3_FUZZ_SEED',
} as const;

/**
 * Builds the child environment: the caller's environment (after `--env-file`) plus
 * `M3_RESULTS_DB` (absolute), `M3_RUN_ID`, `M3_ARGV` (JSON, redacted) and, when given,
 * `M3_TRIALS`, `M3_PROTOCOLS` (JSON list), `M3_SERVERS` (JSON list), `M3_HARNESS` (JSON list),
 * `M3_EXECUTION_TIMEOUT_MS`, `M3_FUZZ_SEED`, `M3_CASSETTES` / `M3_UPDATE_CASSETTES`,
 * and `M3_SECRET_ENV_NAMES` (comma-separated names, never values, of the `--env-file` secrets the
 * workers redact). Selections not given on this command line are removed so a stale value cannot leak in.
 */
export function jestChildEnv(
  base: NodeJS.ProcessEnv,
  options: TestOptions,
  runId: string,
  redactedArgv: readonly string[],
  secretEnvNames: readonly string[] = [],
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const name of Object.values(M3_ENV)) delete env[name];
  env[M3_ENV.resultsDb] = options.resultsDb;
  env[M3_ENV.runId] = runId;
  env[M3_ENV.argv] = JSON.stringify(redactedArgv);
  // The run's owners: Jest records this process too, so nobody closes the run while m3 test lives.
  env[M3_ENV.cliPid] = String(process.pid);
  if (options.trials !== null) env[M3_ENV.trials] = String(options.trials);
  if (options.protocols.length > 0) env[M3_ENV.protocols] = JSON.stringify(options.protocols);
  if (options.servers.length > 0) env[M3_ENV.servers] = JSON.stringify(options.servers);
  if (options.harness.length > 0) env[M3_ENV.harness] = JSON.stringify(options.harness);
  if (options.executionTimeoutMs !== null) env[M3_ENV.executionTimeoutMs] = String(options.executionTimeoutMs);
  if (secretEnvNames.length > 0) env[M3_ENV.secretEnvNames] = secretEnvNames.join(',');
  applyJudgeMaxRequests(env, options.judgeMaxRequests);
  // contract §25: `describe.m3.fuzz` replays this seed.
  if (options.seed !== null) env[M3_ENV.fuzzSeed] = String(options.seed);
  // contract §24: `--cassettes` / `--update-cassettes` (an inherited M3_CASSETTES stays without them).
  applyCassetteFlags(env, options.cassettes);
  return env;
}
