// `m3 test [paths…] [options] [-- <jest args>]`: runs the real Jest with the preset's environment
// variables, then reads the run from the database, prints the summary, writes feedback.json and
// returns the exit status the verdict implies (0 passed, 1 failed, 2 usage/configuration; 128 + the
// signal's number when a signal ended the run).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { displayPath } from '../displayPath';
import { isSecretEnvName, newId, resultsLocationSecrets } from '@sf-m3/core/internal';
import { resolveBaseline, type ResolvedBaseline } from '../baseline/resolveBaseline';
import { cliRedactor, type CliIO } from '../CliIO';
import { withCiArgument } from '../cassettes/cassetteFlags';
import type { CassetteFileReport } from '../cassettes/cassetteSummary';
import { readCassetteReports } from '../cassettes/readCassetteReports';
import { jestConfigArgument } from '../gates/jestConfigArgument';
import type { GateSettings } from '../gates/GateSettings';
import { projectGates } from '../gates/projectGates';
import { saveGateProblems } from '../gates/saveGateProblems';
import { jestChildEnv } from '../jest/jestChildEnv';
import { redactArgv } from '../jest/redactArgv';
import { signalExitStatus, startJest, type JestExit } from '../jest/spawnJest';
import { bearerEnvSecrets } from '../options/serverBearerEnv';
import { serverSecrets } from '../options/serverGroups';
import { validateTestOptions, type RawTestOptions, type TestOptions } from '../options/testOptions';
import { UsageError } from '../options/UsageError';
import { closeRun } from '../run/closeRun';
import { jestShard } from '../shards/jestShard';
import { reportUnfinishedShard } from '../shards/reportUnfinishedShard';
import { settleShard } from '../shards/settleShard';
import { openResultsStore, openRunResultsStore } from '../store/openResultsStore';
import type { serveViewer } from '../ui/serveViewer';
import { buildRunSummary } from '../summary/buildRunSummary';
import { reportSummary } from '../summary/reportSummary';
import { trialsWithoutEffect } from '../summary/trialsWithoutEffect';

/** Everything `m3 test` was given. */
export interface TestCommandInput {
  raw: RawTestOptions;
  paths: string[];
  /** Arguments after `--`, passed to Jest unchanged. */
  jestArgs: string[];
  /** The `m3` argv (after `m3`), saved redacted with the run. */
  argv: string[];
}

/**
 * Loads `--env-file` with Node's own parser (existing variables win) and returns the names it
 * holds whose values are secrets for the whole run (KEY, TOKEN, SECRET, PASSWORD, CREDENTIAL, AUTH).
 */
function loadEnvFile(path: string, env: NodeJS.ProcessEnv): string[] {
  if (!existsSync(path)) throw new UsageError('--env-file', `no such file: ${path}`);
  const before = { ...process.env };
  let names: string[];
  try {
    process.loadEnvFile(path);
    names = Object.keys(parseEnv(readFileSync(path, 'utf8')));
  } catch (error) {
    throw new UsageError('--env-file', `could not read ${path}: ${(error as Error).message.split('\n')[0]}`);
  }
  if (env !== process.env) {
    for (const [key, value] of Object.entries(process.env)) {
      if (before[key] === undefined && env[key] === undefined) env[key] = value;
    }
  }
  return names.filter(isSecretEnvName);
}

/** Runs `m3 test`; returns the exit status. */
export async function runTestCommand(input: TestCommandInput, io: CliIO): Promise<number> {
  const options: TestOptions = validateTestOptions(input.raw, io.cwd, io.env);
  const envFileSecrets = options.envFile !== null ? loadEnvFile(options.envFile, io.env) : [];
  // `--bearer-env NAME` tokens: their variables are the run's secrets too (in the CLI and every worker).
  const bearer = bearerEnvSecrets(options.servers, io.env);
  const secretNames = [...envFileSecrets, ...bearer.names];
  const redactor = cliRedactor(
    io.env,
    [...serverSecrets(options.servers), ...bearer.values, ...resultsLocationSecrets(options.resultsDb)],
    secretNames,
  );
  const shownDb = displayPath(io.cwd, options.resultsDb);
  // postgres lane: one shard of a run that N `m3 test -- --shard=i/N` processes write together.
  const shard = jestShard(input.jestArgs);
  if (shard !== null && options.runId === null) {
    throw new UsageError('--run-id', 'shards write one run: give every shard the same --run-id ID');
  }

  const runId = options.runId ?? newId('run');
  const env = jestChildEnv(io.env, options, runId, redactArgv(['test', ...input.argv], redactor), secretNames);
  // The preset keeps the run's state under this folder, which goes however Jest ends (contract §22).
  const stateRoot = mkdtempSync(join(tmpdir(), 'sf-m3-run-'));
  env[RUN_STATE_ROOT_ENV] = stateRoot;
  let exit: JestExit;
  let cassetteReports: CassetteFileReport[];
  let gates: GateSettings;
  let baseline: ResolvedBaseline;
  try {
    // Jest's process reads the project's Jest config first (the gates in testEnvironmentOptions.m3)
    // and waits: a usage error here ends it before Jest runs anything.
    const jest = startJest({
      cwd: io.cwd,
      args: withCiArgument([...input.paths, ...input.jestArgs], options.cassettes),
      env,
      stdoutToStderr: options.json,
      query: { folder: io.cwd, configArg: jestConfigArgument(input.jestArgs, io.cwd) },
    });
    try {
      gates = projectGates(options, io.cwd, await jest.config);
      const before = await openRunResultsStore(options.resultsDb);
      try {
        if (options.runId !== null && shard === null && (await before.getRun(options.runId)) !== null) {
          throw new UsageError('--run-id', `run ${options.runId} already exists in ${shownDb}; choose a new id`);
        }
        baseline = await resolveBaseline(before, gates.baseline?.value ?? null, null);
      } finally {
        await before.close();
      }
    } catch (error) {
      await jest.stop();
      throw error;
    }
    exit = await jest.run();
    cassetteReports = readCassetteReports(stateRoot);
  } finally {
    rmSync(stateRoot, { recursive: true, force: true });
  }
  const signal = exit.received ?? exit.signal;
  const signalled = (status: number): number => (signal === null ? status : signalExitStatus(signal));

  const store = openResultsStore(options.resultsDb, { mustExist: false });
  try {
    const run = await store.getRun(runId);
    if (run === null) {
      // Jest never reached the preset's global setup: a config without the preset (Jest passed, so
      // this is a configuration error) or Jest failing before it ran anything (the run failed).
      const how = exit.signal !== null ? `was stopped by ${exit.signal}` : `exited with status ${String(exit.code)}`;
      io.stderr(
        `m3 test: Jest ${how} without recording run ${runId} in ${shownDb}. ` +
          `Check that your Jest config uses preset 'sf-m3' and that Jest found tests.\n`,
      );
      if (exit.code === 0 && signal === null) return 2;
      const reason = `Jest ${how} before the run was recorded`;
      // With --json, stdout stays one JSON document even when there is no saved run to summarize.
      if (options.json) {
        const jestExit = { code: exit.code, signal: exit.signal };
        io.stdout(`${JSON.stringify({ runId, verdict: 'failed', reasons: [reason], jestExit }, null, 2)}\n`);
      } else {
        io.stdout(`verdict     failed: ${reason}\n`);
      }
      return signalled(1);
    }
    const settled = shard === null ? null : await settleShard(store, run, shard, exit);
    if (settled !== null && shard !== null && !settled.runFinished) {
      return signalled(reportUnfinishedShard(io, redactor, { runId, shard, exit, settled, json: options.json }));
    }
    await closeRun(store, settled?.run ?? run, exit);
    const summarized = await buildRunSummary(store, {
      runId,
      redactor,
      resultsDb: shownDb,
      cwd: io.cwd,
      baselineRunId: baseline.runId,
      baselineNote: baseline.note,
      alpha: gates.alpha?.value,
      gates,
      judgeMaxRequests: options.judgeMaxRequests,
      cassetteReports,
      jestExit: { code: exit.code, signal: exit.signal },
    });
    await saveGateProblems(store, runId, summarized.summary.gates);
    const trialsWarning = trialsWithoutEffect(options.trials, summarized.attempts);
    if (trialsWarning !== null) io.stderr(`m3 test: warning: ${trialsWarning}\n`);
    const status = signalled(reportSummary(summarized, io, redactor, options.json));
    // viewer: `m3 test --ui` serves the new run after Jest finishes (not after a signal), then
    // returns the run's own status.
    if (options.ui !== null && signal === null) {
      await store.close();
      // Required here: the viewer's server (its router and routes) is only for --ui.
      const viewer = require('../ui/serveViewer') as { serveViewer: typeof serveViewer };
      await viewer.serveViewer(
        {
          resultsDb: options.resultsDb,
          port: options.ui.port,
          runId,
          open: Boolean(process.stdout.isTTY),
          urlToStderr: options.json,
        },
        io,
      );
    }
    return status;
  } finally {
    await store.close();
  }
}

/** Where `m3 test` tells the preset to keep the run's state (the preset's `M3_RUN_STATE_ROOT`). */
export const RUN_STATE_ROOT_ENV = 'M3_RUN_STATE_ROOT';
