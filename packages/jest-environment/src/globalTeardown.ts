import type { Config } from '@jest/types';
import { M3Error } from '@sf-m3/core/internal';
import type { RunProblem } from '@sf-m3/core';
import { interruptUnfinished } from '@sf-m3/core/store';
import { openPersistedStore } from './persistenceConfig';
import { coordinates, finishShard } from './shards/shardedRun';
import { RUN_ID_ENV, RUN_STATE_DIR_ENV } from './runContext';
import {
  finishRun,
  GLOBAL_RUN_STATE,
  mergeRequiredFailures,
  runFailureMessage,
  runProblems,
  storedMissingRequired,
  storedRequiredFailures,
  unfinishedFileMessage,
} from './runLifecycle';
import type { GlobalRunState, MissingRequired } from './runLifecycle';
import type { CassetteFileReport, RequiredFailureReport, RunningFile } from './RunStateDir';
import { isRunProblemReport, RunStateDir } from './RunStateDir';
import { handOverCassetteReports } from './cassettes/handOverCassetteReports';

/**
 * The preset's `globalTeardown`: finishes the run record (attempt counts, status and the problems
 * workers reported) and fails the run — Jest exits 1 — when a required evaluation did not pass
 * anywhere, naming the evaluator and the test, even if the test caught the error and even when
 * nothing is persisted. A file whose worker died is named on the run, its test in flight gets a
 * failed attempt and its execution in flight is finished `interrupted` (contract §22).
 */
export default async function globalTeardown(
  _globalConfig: Config.GlobalConfig,
  _projectConfig: Config.ProjectConfig,
): Promise<void> {
  const holder = globalThis as { [GLOBAL_RUN_STATE]?: GlobalRunState };
  const state = holder[GLOBAL_RUN_STATE];
  if (state === undefined) return; // global setup did not run: nothing to finish
  delete holder[GLOBAL_RUN_STATE];
  const stateDir = new RunStateDir(state.stateDir);
  const all = stateDir.read();
  // Cassette reports are no problem: they go to the CLI's summary (contract §24), never fail the run.
  const reports = all.filter(isRunProblemReport);
  const cassetteReports = all.filter((report): report is CassetteFileReport => report.kind === 'cassette_file');
  const unfinished = stateDir.unfinishedFiles();
  let stored: PersistedVerdicts = { failures: [], missing: [] };
  try {
    if (state.resultsDb !== null) {
      stored = await finishPersistedRun(state, reports.length > 0, runProblems(reports, unfinished), unfinished);
    }
  } finally {
    handOverCassetteReports(cassetteReports, process.env);
    stateDir.remove();
    state.releaseSignals(); // only now: a signal during teardown still removes the folder
    restoreEnv(state.previousEnv);
  }
  const required = mergeRequiredFailures(reports, stored.failures);
  const message = runFailureMessage(required, reports, stored.missing);
  if (message !== null) {
    const requiredIssue = required.length > 0 || stored.missing.length > 0;
    const error = new M3Error(requiredIssue ? 'required_evaluation_failed' : 'persistence_error', message, {
      runId: state.runId,
      requiredFailures: required.length,
      missingRequired: stored.missing.length,
    });
    error.stack = message; // the message is the whole story; a stack would only bury it
    throw error;
  }
}

/** Required evaluations of the run the database says did not pass, or never ran. */
interface PersistedVerdicts {
  readonly failures: RequiredFailureReport[];
  readonly missing: MissingRequired[];
}

async function finishPersistedRun(
  state: GlobalRunState,
  problemsReported: boolean,
  problemsOfRun: readonly RunProblem[],
  unfinished: readonly RunningFile[],
): Promise<PersistedVerdicts> {
  let problems = problemsOfRun;
  const store = openPersistedStore(state.resultsDb as string);
  try {
    let attempts = await store.listAttempts({ runId: state.runId });
    let failedElsewhere = false;
    if (state.shard !== null && coordinates(store)) {
      // postgres lane: only the shard that finishes last closes the run (and may interrupt what is open).
      const shardFailures = await storedRequiredFailures(store, state.runId);
      const shardMissing = await storedMissingRequired(store, state.runId);
      const failed = problemsReported || shardFailures.length > 0 || shardMissing.length > 0;
      const last = await finishShard(store, state, failed, problems);
      if (last === null) return { failures: shardFailures, missing: shardMissing };
      failedElsewhere = last.failed;
      problems = last.problems;
      attempts = await store.listAttempts({ runId: state.runId }); // every shard's final attempts
    }
    if (unfinished.length > 0 || attempts.some((attempt) => attempt.outcome === null)) {
      // Every worker has ended, so what is still open died with its worker.
      const byPath = new Map(unfinished.map((file) => [file.testPath, file]));
      await interruptUnfinished(store, state.runId, (testPath) => {
        const file = testPath === null ? undefined : byPath.get(testPath);
        return `interrupted: ${file === undefined ? 'the run ended before this finished' : unfinishedFileMessage(file)}`;
      });
      attempts = await store.listAttempts({ runId: state.runId });
    }
    const failures = await storedRequiredFailures(store, state.runId);
    const missing = await storedMissingRequired(store, state.runId);
    const base = (await store.getRun(state.runId)) ?? {
      runId: state.runId,
      label: null,
      startedAt: state.startedAt,
      finishedAt: null,
      status: 'running' as const,
      argv: state.argv,
      counts: { passed: 0, failed: 0, skipped: 0, todo: 0 },
    };
    const failed = problemsReported || failedElsewhere || failures.length > 0 || missing.length > 0;
    await store.saveRun(finishRun(base, attempts, failed, new Date().toISOString(), problems));
    return { failures, missing };
  } finally {
    await store.close();
  }
}

function restoreEnv(previous: Record<string, string | undefined>): void {
  for (const name of [RUN_ID_ENV, RUN_STATE_DIR_ENV]) {
    const value = previous[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}
