// Drives one faulted `m3 test` run of e2e/fixtures/faults-run through the real binaries and
// collects what it left: exit status, the saved run as `m3 runs`/`m3 report`/feedback.json and the
// database see it, processes still alive, and temporary files left behind.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  watch,
  writeFileSync,
  type FSWatcher,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as sqlite3 from 'sqlite3';
import { isAlive, processGroupMembers } from '../../packages/core/src/transport/processTree';
import { copyFixture, m3Bin, readFeedback, repoRoot, runM3MainWithEnv, withStore, type M3Run } from '../cli.testkit';

/** A faulted run in its own project copy and private temp directory. */
export interface FaultRun {
  readonly folder: string;
  /** TMPDIR of the run: only this run writes here, so every entry in it is the run's. */
  readonly tmp: string;
  readonly readyDir: string;
  readonly child: ChildProcess;
  readonly exited: Promise<{ status: number | null; signal: NodeJS.Signals | null; output: string }>;
}

/**
 * Jest's transform cache, shared by the suite's runs (outside their private TMPDIR, so a cold
 * cache does not re-transform the kit for every run).
 */
const jestCache = join(tmpdir(), 'm3-faults-jest-cache');

/**
 * Starts `m3 test <args>` on a fresh copy of the faults fixture. `forgetTimings` drops the test
 * timings from Jest's cache first: with fast timings on record Jest runs a few files in band,
 * without them it uses workers.
 * `files` are written into the copy first (a broken file the repository's linters must not see).
 */
export function startFaultRun(
  args: readonly string[],
  options: { forgetTimings?: boolean; files?: Record<string, string> } = {},
): FaultRun {
  const folder = copyFixture('faults-run');
  for (const [name, text] of Object.entries(options.files ?? {})) writeFileSync(join(folder, name), text);
  const tmp = mkdtempSync(join(tmpdir(), 'm3-faults-tmp-'));
  const readyDir = join(folder, '.ready');
  mkdirSync(readyDir);
  const env: NodeJS.ProcessEnv = { ...process.env, SF_M3_ROOT: repoRoot, TMPDIR: tmp, FAULT_READY_DIR: readyDir };
  for (const name of Object.keys(env)) if (name.startsWith('M3_') || name === 'JEST_WORKER_ID') delete env[name];
  env.M3_CASSETTES = 'off'; // the fixture's agents reach their endpoint live and write no cassette (contract §24)
  if (options.forgetTimings === true && existsSync(jestCache)) {
    for (const name of readdirSync(jestCache)) if (name.startsWith('perf-cache-')) rmSync(join(jestCache, name));
  }
  const child = spawn(process.execPath, [m3Bin, 'test', ...args, `--cacheDirectory=${jestCache}`], {
    cwd: folder,
    env,
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<{ status: number | null; signal: NodeJS.Signals | null; output: string }>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.once('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, output });
    });
  });
  return { folder, tmp, readyDir, child, exited };
}

/**
 * Starts a plain `jest` (no `m3`) on a fresh copy of the faults fixture, saving into the project's
 * `.m3/executions.sqlite` (`M3_RESULTS_DB`); its `child` is Jest itself. `after`: run in that
 * earlier run's project copy and temp directory instead of fresh ones.
 */
export function startPlainJest(args: readonly string[], after?: FaultRun): FaultRun {
  const folder = after?.folder ?? copyFixture('faults-run');
  const tmp = after?.tmp ?? mkdtempSync(join(tmpdir(), 'm3-faults-tmp-'));
  const readyDir = join(folder, '.ready');
  mkdirSync(readyDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, SF_M3_ROOT: repoRoot, TMPDIR: tmp, FAULT_READY_DIR: readyDir };
  for (const name of Object.keys(env)) if (name.startsWith('M3_') || name === 'JEST_WORKER_ID') delete env[name];
  env.M3_CASSETTES = 'off'; // the fixture's agents reach their endpoint live and write no cassette (contract §24)
  env.M3_RESULTS_DB = join(folder, '.m3', 'executions.sqlite');
  const jestBin = join(repoRoot, 'node_modules', 'jest', 'bin', 'jest.js');
  const child = spawn(process.execPath, [jestBin, '--ci', ...args, `--cacheDirectory=${jestCache}`], {
    cwd: folder,
    env,
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<{ status: number | null; signal: NodeJS.Signals | null; output: string }>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.once('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, output });
    });
  });
  return { folder, tmp, readyDir, child, exited };
}

/**
 * How the suite calls `m3` on a run's project: `bin`, the real bin in a child process (as a user
 * does), or `main`, the compiled CLI's main in this process (cli.testkit's runM3MainWithEnv: the same code, without
 * the quarter second of CPU a child costs to start). Cases keep the bin where the process is the point.
 */
export type M3Via = 'bin' | 'main';

/** The environment `m3` gets on a run's project: this repository, the run's TMPDIR, no M3_* settings. */
function m3Env(run: FaultRun): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, SF_M3_ROOT: repoRoot, TMPDIR: run.tmp };
  for (const name of Object.keys(env)) if (name.startsWith('M3_') || name === 'JEST_WORKER_ID') delete env[name];
  return env;
}

/** `m3 <args>` in the run's project, through the bin or the CLI's main. */
export async function m3On(run: FaultRun, args: readonly string[], via: M3Via): Promise<M3Run> {
  if (via === 'main') return runM3MainWithEnv(args, run.folder, m3Env(run));
  const child = spawnSync(process.execPath, [m3Bin, ...args], { cwd: run.folder, env: m3Env(run), encoding: 'utf8' });
  if (child.status === null) throw new Error(`m3 ${args.join(' ')} ended by ${String(child.signal)}: ${child.stderr}`);
  return { status: child.status, stdout: child.stdout, stderr: child.stderr, combined: '' };
}

/** `m3 runs --json` in the run's project: the runs it lists and what it said on stderr. */
export async function m3Runs(
  run: FaultRun,
  via: M3Via,
): Promise<{ runs: { runId: string; status: string }[]; stderr: string }> {
  const listed = await m3On(run, ['runs', '--json'], via);
  if (listed.status !== 0) throw new Error(`m3 runs exited ${String(listed.status)}: ${listed.stderr}`);
  return {
    runs: (JSON.parse(listed.stdout) as { runs: { runId: string; status: string }[] }).runs,
    stderr: listed.stderr,
  };
}

/**
 * Waits until the fixture wrote `name.json` into the ready folder (written by rename, so a watch on
 * the folder sees it arrive), and reads it. Event-driven, without a deadline of its own: it fails as
 * soon as the run ends without the marker, and the run's own limit (startFaultRun) ends a hung run.
 */
export async function waitForMarker(run: FaultRun, name: string): Promise<{ pid: number; ppid?: number }> {
  const file = join(run.readyDir, `${name}.json`);
  let watcher: FSWatcher | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (existsSync(file)) resolve();
      };
      watcher = watch(run.readyDir, check);
      check();
      void run.exited.then((exit) => {
        check(); // written just before the run ended
        reject(new Error(`m3 ended before ${name} was ready:\n${exit.output}`));
      });
    });
  } finally {
    watcher?.close();
  }
  return JSON.parse(readFileSync(file, 'utf8')) as { pid: number; ppid?: number };
}

/** Everything a finished faulted run left, for the suite to check and print. */
export interface FaultFindings {
  readonly runId: string;
  readonly dbStatus: string;
  readonly problems: readonly { kind: string; testPath: string | null; message: string }[];
  readonly runsStatus: string | undefined;
  readonly reportVerdict: string;
  readonly reportExit: number | null;
  readonly feedbackVerdict: string;
  readonly integrity: string;
  /** Executions of the run by outcome (`null` for one never finished). */
  readonly outcomes: Record<string, number>;
  /** Executions whose stored trace does not end with `execution.finished` or whose view cannot be read. */
  readonly unreadable: string[];
  readonly attempts: readonly { fullName: string; outcome: string | null; failureMessage: string | null }[];
  /** pids the kit recorded in process events of the run's executions. */
  readonly recordedPids: number[];
  /** Entries left in the run's TMPDIR (`sf-m3-*` run state, capture files, proxy configs, `m3-acp-*` agent homes...). */
  readonly tempLeft: string[];
}

/** SQLite's `PRAGMA integrity_check` of a database file, read-only: 'ok' when it is intact. */
function integrityCheck(file: string): Promise<string> {
  return new Promise((resolve) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (openError) => {
      if (openError) return resolve(String(openError));
      db.get<{ integrity_check: string }>('PRAGMA integrity_check', (error, row) =>
        db.close(() => resolve(error ? String(error) : row.integrity_check)),
      );
    });
  });
}

/** Reads the run back through `m3 runs`, `m3 report` (called `via` the bin or main), feedback.json and the database. */
export async function inspectFaultRun(run: FaultRun, via: M3Via): Promise<FaultFindings> {
  const listed = (await m3Runs(run, via)).runs;
  const runId = listed[0]!.runId;
  const feedbackBefore = readFeedback(run.folder, runId).summary.verdict as string;
  const report = await m3On(run, ['report', runId, '--json'], via);
  const reported = JSON.parse(report.stdout) as { verdict: string };
  const feedbackAfter = readFeedback(run.folder, runId).summary.verdict as string;
  const integrity = await integrityCheck(join(run.folder, '.m3', 'executions.sqlite'));
  const stored = await withStore(run.folder, async (store) => {
    const record = (await store.getRun(runId))!;
    const executions = await store.listExecutions({ runId });
    const outcomes: Record<string, number> = {};
    const unreadable: string[] = [];
    const recordedPids: number[] = [];
    for (const execution of executions) {
      const key = execution.outcome ?? 'null';
      outcomes[key] = (outcomes[key] ?? 0) + 1;
      try {
        const trace = await store.getTrace(execution.executionId);
        if (trace.events.at(-1)?.kind !== 'execution.finished') unreadable.push(execution.executionId);
        await store.getTraceView(execution.executionId);
        for (const event of trace.events) {
          const pid = (event.payload as { pid?: unknown }).pid;
          if (event.kind.startsWith('process.') && typeof pid === 'number') recordedPids.push(pid);
        }
      } catch {
        unreadable.push(execution.executionId);
      }
    }
    const attempts = (await store.listAttempts({ runId })).map((a) => ({
      fullName: a.fullName,
      outcome: a.outcome,
      failureMessage: a.failureMessage,
    }));
    return { record, outcomes, unreadable, recordedPids, attempts };
  });
  return {
    runId,
    dbStatus: stored.record.status,
    // Read loosely: the suite also runs against builds from before runs carried problems.
    problems: (stored.record as { problems?: FaultFindings['problems'] }).problems ?? [],
    runsStatus: listed.find((r) => r.runId === runId)?.status,
    reportVerdict: reported.verdict,
    reportExit: report.status,
    feedbackVerdict: feedbackBefore === feedbackAfter ? feedbackAfter : `${feedbackBefore} then ${feedbackAfter}`,
    integrity,
    outcomes: stored.outcomes,
    unreadable: stored.unreadable,
    attempts: stored.attempts,
    recordedPids: stored.recordedPids,
    tempLeft: readdirSync(run.tmp),
  };
}

/** Processes of the run still alive: the members of Jest's process group, and the given pids. */
export function survivors(jestPid: number | null, pids: readonly number[]): number[] {
  const left = new Set(jestPid === null ? [] : processGroupMembers(jestPid));
  for (const pid of pids) if (isAlive(pid)) left.add(pid);
  return [...left];
}

/** Removes the run's project copy and temp directory. */
export function removeFaultRun(run: FaultRun): void {
  rmSync(run.folder, { recursive: true, force: true });
  rmSync(run.tmp, { recursive: true, force: true });
}
