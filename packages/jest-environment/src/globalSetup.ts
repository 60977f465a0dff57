import type { Config } from '@jest/types';
import { newId, Redactor } from '@sf-m3/core';
import { openPersistedStore, resolvePersistence } from './persistenceConfig';
import { coordinates, shardOf, startShard } from './shards/shardedRun';
import { readArgv, RUN_ID_ENV, RUN_STATE_DIR_ENV, RUN_STATE_ROOT_ENV } from './runContext';
import { GLOBAL_RUN_STATE } from './runLifecycle';
import type { GlobalRunState } from './runLifecycle';
import { RunStateDir } from './RunStateDir';
import { removeOnSignal } from './removeOnSignal';

/**
 * The preset's `globalSetup`: fixes the run id (`M3_RUN_ID` from the `m3` CLI, else a new
 * `run-…`), exports it and a run-scoped report folder to `process.env` before Jest starts its
 * workers (under `M3_RUN_STATE_ROOT` when the CLI gives one; removed if a signal ends Jest), and
 * saves the run record when persistence is on.
 */
export default async function globalSetup(
  globalConfig: Config.GlobalConfig,
  projectConfig: Config.ProjectConfig,
): Promise<void> {
  const env = process.env;
  const previousEnv = { [RUN_ID_ENV]: env[RUN_ID_ENV], [RUN_STATE_DIR_ENV]: env[RUN_STATE_DIR_ENV] };
  const given = env[RUN_ID_ENV]?.trim();
  const runId = given !== undefined && given.length > 0 ? given : newId('run');
  const stateDir = RunStateDir.create(env[RUN_STATE_ROOT_ENV]);
  const { resultsDb } = resolvePersistence({
    env,
    testEnvironmentOptions: projectConfig.testEnvironmentOptions,
    rootDir: projectConfig.rootDir,
    cwd: process.cwd(),
  });
  const redactor = new Redactor();
  const state: GlobalRunState = {
    runId,
    startedAt: new Date().toISOString(),
    argv: readArgv(env, process.argv.slice(2)).map((arg) => redactor.redactText(arg)),
    resultsDb,
    shard: shardOf(globalConfig),
    stateDir: stateDir.dir,
    previousEnv,
    releaseSignals: () => undefined,
  };
  if (resultsDb !== null) {
    const store = openPersistedStore(resultsDb, projectConfig.rootDir);
    try {
      const run = {
        runId,
        label: null,
        startedAt: state.startedAt,
        finishedAt: null,
        status: 'running' as const,
        argv: state.argv,
        counts: { passed: 0, failed: 0, skipped: 0, todo: 0 },
      };
      if (state.shard !== null && coordinates(store)) await startShard(store, state, run);
      else await store.saveRun(run);
    } catch (error) {
      stateDir.remove();
      throw error;
    } finally {
      await store.close();
    }
  }
  env[RUN_ID_ENV] = runId;
  env[RUN_STATE_DIR_ENV] = stateDir.dir;
  (globalThis as { [GLOBAL_RUN_STATE]?: GlobalRunState })[GLOBAL_RUN_STATE] = {
    ...state,
    releaseSignals: removeOnSignal(stateDir),
  };
}
