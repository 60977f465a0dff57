import type { Config } from '@jest/types';
import type { RunProcess } from '@sf-m3/core';
import { closeAbandonedRuns } from '@sf-m3/core/store';
import { newId, runProcessOf, Redactor } from '@sf-m3/core/internal';
import { openPersistedStore, resolvePersistence } from './persistenceConfig';
import { coordinates, shardOf, startShard } from './shards/shardedRun';
import { CLI_PID_ENV, readArgv, RUN_ID_ENV, RUN_STATE_DIR_ENV, RUN_STATE_ROOT_ENV } from './runContext';
import { GLOBAL_RUN_STATE } from './runLifecycle';
import type { GlobalRunState } from './runLifecycle';
import { RunStateDir } from './RunStateDir';
import { removeOnSignal } from './removeOnSignal';

/**
 * The preset's `globalSetup`: fixes the run id (`M3_RUN_ID` from the `m3` CLI, else a new
 * `run-…`), exports it and a run-scoped report folder to `process.env` before Jest starts its
 * workers (under `M3_RUN_STATE_ROOT` when the CLI gives one; removed if a signal ends Jest), and
 * saves the run record when persistence is on, with the processes that own it (this Jest, and the
 * `m3 test` around it) so a later run can tell when they are gone. Then closes the runs of this
 * store whose processes are all gone (a SIGKILLed \`jest\` never ran its teardown), saying so.
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
    processes: runProcesses(env),
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
        processes: state.processes,
      };
      if (state.shard !== null && coordinates(store)) await startShard(store, state, run);
      else await store.saveRun(run);
      for (const closed of await closeAbandonedRuns(store)) {
        const why = closed.problems?.at(-1)?.message ?? 'its processes are gone';
        process.stderr.write(`m3: closed run ${closed.runId} as interrupted (${why})\n`);
      }
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

/** This Jest, and the `m3 test` that started it when it did (`M3_CLI_PID`). */
function runProcesses(env: NodeJS.ProcessEnv): RunProcess[] {
  const processes = [runProcessOf('jest')];
  const cli = Number(env[CLI_PID_ENV]);
  if (Number.isSafeInteger(cli) && cli > 0 && cli !== process.pid) processes.push(runProcessOf('m3 test', cli));
  return processes;
}
