// contract §22 through the real `m3` and `jest` binaries: a run ended by a signal (to `m3` or to Jest,
// SIGINT, SIGTERM, SIGKILL) while a stdio, HTTP, in-process or ACP execution is mid-call, one worker of
// several SIGKILLed, and a test file that cannot load. After each, the exit status, `m3 runs`,
// `m3 report`, feedback.json and the database agree; the database is intact; every execution is
// complete (in-flight ones `interrupted`) and every test has its attempt; no process of the run and
// no temporary file is left. The figures are printed as one summary line at the end.
import { descendantsOf, isAlive } from '../../packages/core/src/transport/processTree';
import { ensureBuilt, withStore } from '../cli.testkit';
import {
  inspectFaultRun,
  m3On,
  m3Runs,
  removeFaultRun,
  startFaultRun,
  startPlainJest,
  survivors,
  waitForMarker,
  type FaultFindings,
  type FaultRun,
} from './faultRun.testkit';

// Generous: the machine may be loaded; every wait inside is bounded on its own.
jest.setTimeout(420_000);

const runs: FaultRun[] = [];
const figures = { runs: 0, processesLeft: 0, rowsLost: 0, tempFilesLeft: 0 };

beforeAll(() => ensureBuilt());
afterAll(() => {
  runs.forEach(removeFaultRun);
  console.log(
    `fault suite (runs): ${figures.runs} faulted runs, ${figures.processesLeft} processes left, ` +
      `${figures.rowsLost} rows lost, ${figures.tempFilesLeft} temp files left`,
  );
});

function start(args: string[], options: Parameters<typeof startFaultRun>[1] = {}): FaultRun {
  const run = startFaultRun(args, options);
  runs.push(run);
  return run;
}

/** What every faulted run must show, whatever the fault (contract §22). */
function expectConsistent(found: FaultFindings, exitStatus: number | null, expected: 'failed' | 'interrupted'): void {
  figures.runs += 1;
  figures.tempFilesLeft += found.tempLeft.length;
  figures.rowsLost += (found.outcomes.null ?? 0) + found.unreadable.length;
  figures.rowsLost += found.attempts.filter((a) => a.outcome === null).length;
  expect(found.dbStatus).toBe(expected);
  expect(found.runsStatus).toBe(expected);
  expect(found.reportVerdict).toBe('failed');
  expect(found.reportExit).toBe(1);
  expect(found.feedbackVerdict).toBe('failed');
  expect(exitStatus).not.toBe(0);
  expect(found.integrity).toBe('ok');
  expect(found.outcomes.null).toBeUndefined();
  expect(found.unreadable).toEqual([]);
  expect(found.attempts.filter((a) => a.outcome === null)).toEqual([]);
  expect(found.tempLeft).toEqual([]);
}

/** Waits (bounded) until `pid`, killed by this test, has exited. */
async function waitUntilGone(pid: number): Promise<void> {
  for (let i = 0; i < 400 && survivors(null, [pid]).length > 0; i += 1) await new Promise((r) => setTimeout(r, 25));
}

/**
 * The run's processes left once they have had up to 10 s to end: a worker ends on its own after
 * its Jest is gone, a moment after m3 exits, and reading the run back in process takes less than
 * that moment (CI saw two workers still there); one still there after the wait is a survivor.
 */
async function countSurvivors(jestPid: number | null, pids: number[]): Promise<number[]> {
  for (let i = 0; i < 400 && survivors(jestPid, pids).length > 0; i += 1) await new Promise((r) => setTimeout(r, 25));
  const left = survivors(jestPid, pids);
  figures.processesLeft += left.length;
  return left;
}

/** Jest's pid from the test's worker marker: the worker's parent, or the worker itself in band. */
function jestPidOf(worker: { pid: number; ppid?: number }, m3Pid: number): number {
  return worker.ppid === m3Pid ? worker.pid : (worker.ppid as number);
}

// The first case reads its run back through the `m3` bin (`m3 runs`, `m3 report` as processes); the
// others through the CLI's main in this process, the same code without a process start each.
describe.each([
  { transport: 'stdio', target: 'm3', signal: 'SIGINT', status: 130, via: 'bin' },
  { transport: 'http', target: 'm3', signal: 'SIGTERM', status: 143, via: 'main' },
  { transport: 'inprocess', target: 'jest', signal: 'SIGKILL', status: 137, via: 'main' },
  { transport: 'stdio', target: 'jest', signal: 'SIGTERM', status: 143, via: 'main' },
  { transport: 'acp', target: 'm3', signal: 'SIGINT', status: 130, via: 'main' },
] as const)('$signal to $target during a $transport execution', ({ transport, target, signal, status, via }) => {
  test('exits 128 + the signal, the run is interrupted everywhere, and nothing is left behind', async () => {
    const run = start([`tests/${transport}`, '--', '--runInBand']);
    const ready = await waitForMarker(run, `ready-${transport}`);
    const worker = await waitForMarker(run, `worker-${transport}`);
    const m3Pid = run.child.pid as number;
    const jestPid = jestPidOf(worker, m3Pid);
    process.kill(target === 'm3' ? m3Pid : jestPid, signal);
    const exit = await run.exited;
    expect(exit.status).toBe(status);

    const found = await inspectFaultRun(run, via);
    expectConsistent(found, exit.status, 'interrupted');
    expect(found.outcomes).toEqual({ interrupted: 1 });
    expect(found.attempts).toEqual([
      expect.objectContaining({ outcome: 'failed', failureMessage: expect.stringMatching(/^interrupted: /) }),
    ]);
    expect(await countSurvivors(jestPid, [ready.pid, worker.pid, ...found.recordedPids])).toEqual([]);
  });
});

test('SIGKILL of one worker of two: the run fails naming the file, the other file keeps its results', async () => {
  const run = start(['tests/passes', 'tests/stdio', '--', '--maxWorkers=2'], { forgetTimings: true });
  const ready = await waitForMarker(run, 'ready-stdio');
  const worker = await waitForMarker(run, 'worker-stdio');
  const m3Pid = run.child.pid as number;
  const jestPid = jestPidOf(worker, m3Pid);
  expect(jestPid).not.toBe(worker.pid); // a real worker, not Jest itself
  process.kill(worker.pid, 'SIGKILL');
  const exit = await run.exited;
  expect(exit.status).toBe(1);
  expect(exit.output).toMatch(/test file tests\/stdio\.test\.js did not finish: its worker \(pid \d+\) was killed/);

  const found = await inspectFaultRun(run, 'main');
  expectConsistent(found, exit.status, 'failed');
  expect(found.problems).toEqual([
    expect.objectContaining({ kind: 'file_unfinished', testPath: 'tests/stdio.test.js' }),
  ]);
  expect(found.outcomes).toEqual({ completed: 1, interrupted: 1 });
  const byName = Object.fromEntries(found.attempts.map((a) => [a.fullName, a]));
  expect(byName['faults quotes a local parcel']?.outcome).toBe('passed');
  expect(byName['faults hangs mid-call over stdio']).toMatchObject({
    outcome: 'failed',
    failureMessage: expect.stringContaining('test file tests/stdio.test.js did not finish'),
  });
  expect(await countSurvivors(jestPid, [ready.pid, worker.pid, ...found.recordedPids])).toEqual([]);
});

test('SIGKILL of Jest itself while two workers run: the run is interrupted everywhere, no worker is left', async () => {
  const run = start(['tests/passes', 'tests/stdio', '--', '--maxWorkers=2'], { forgetTimings: true });
  const ready = await waitForMarker(run, 'ready-stdio');
  const worker = await waitForMarker(run, 'worker-stdio');
  const jestPid = jestPidOf(worker, run.child.pid as number);
  expect(jestPid).not.toBe(worker.pid); // Jest's parent process, its workers still running
  process.kill(jestPid, 'SIGKILL');
  const exit = await run.exited;
  expect(exit.status).toBe(137);

  const found = await inspectFaultRun(run, 'main');
  expectConsistent(found, exit.status, 'interrupted');
  expect(found.problems).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ kind: 'interrupted', message: 'the run was interrupted: Jest was stopped by SIGKILL' }),
    ]),
  );
  const byName = Object.fromEntries(found.attempts.map((a) => [a.fullName, a]));
  expect(byName['faults hangs mid-call over stdio']).toMatchObject({
    outcome: 'failed',
    failureMessage: expect.stringMatching(/^interrupted: /),
  });
  expect(await countSurvivors(jestPid, [ready.pid, worker.pid, ...found.recordedPids])).toEqual([]);
});

test('a test file that cannot load fails the run, naming the file, in every view', async () => {
  const broken = "describe.m3('faults', () => {\n  test('never runs', () => {\n    expect(1).toBe(1);\n  ;\n});\n";
  // In band: what a file that cannot load does to the run does not depend on workers.
  const run = start(['tests/passes', 'tests/broken', '--', '--runInBand'], {
    files: { 'tests/broken.test.js': broken },
  });
  const exit = await run.exited;
  expect(exit.status).toBe(1);
  expect(exit.output).toContain('SyntaxError');

  const found = await inspectFaultRun(run, 'main');
  expectConsistent(found, exit.status, 'failed');
  expect(found.problems).toEqual([expect.objectContaining({ kind: 'file_error', testPath: 'tests/broken.test.js' })]);
  expect(found.outcomes).toEqual({ completed: 1 });
  expect(await countSurvivors(null, found.recordedPids)).toEqual([]);
});

test('SIGKILL of a plain `jest` mid-test: the run it left running is closed interrupted by the next m3 runs', async () => {
  const run = startPlainJest(['tests/inprocess', 'tests/passes', '--maxWorkers=2']);
  runs.push(run);
  await waitForMarker(run, 'ready-inprocess');
  const worker = await waitForMarker(run, 'worker-inprocess');
  const jestPid = run.child.pid as number;
  const listed = await m3Runs(run, 'main');
  // While its Jest lives, nobody closes the run.
  expect({ stderr: listed.stderr, statuses: listed.runs.map((r) => r.status) }).toEqual({
    stderr: '',
    statuses: ['running'],
  });
  const runId = listed.runs[0]!.runId;
  // Jest is SIGKILLed, and its workers with it (as a CI job's kill or the OOM killer takes the whole
  // tree): a Jest worker whose parent died is not an owner of the run, and would hang on here. Every
  // worker goes, the one running tests/passes too: left alive, it could still start or finish its
  // execution after `m3 runs` below closed the run (seen once under CI load: an execution with no
  // outcome beside the interrupted one).
  const tree = [worker.pid, ...descendantsOf(jestPid)];
  process.kill(jestPid, 'SIGKILL');
  expect((await run.exited).signal).toBe('SIGKILL');
  for (const pid of tree) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const pid of tree) await waitUntilGone(pid);
  expect(await countSurvivors(null, tree)).toEqual([]);
  expect(await withStore(run.folder, async (store) => (await store.getRun(runId))?.status)).toBe('running');

  // Through the bin: the closing is said on the process's stderr.
  const after = await m3Runs(run, 'bin');
  expect(after.stderr).toMatch(
    new RegExp(
      `^m3: closed run ${runId} as interrupted: jest \\(pid ${jestPid} on [^)]+\\) ended without finishing it \\(killed or crashed\\)\\n$`,
    ),
  );
  expect(after.runs.map((r) => [r.runId, r.status])).toEqual([[runId, 'interrupted']]);
  const stored = await withStore(run.folder, async (store) => ({
    run: await store.getRun(runId),
    outcomes: (await store.listExecutions({ runId })).map((e) => e.outcome),
    attempts: await store.listAttempts({ runId }),
  }));
  expect(stored.run).toMatchObject({
    status: 'interrupted',
    problems: [expect.objectContaining({ kind: 'interrupted' })],
  });
  expect(stored.run!.finishedAt).not.toBeNull();
  expect(stored.outcomes).toContain('interrupted');
  expect(stored.outcomes).not.toContain(null);
  const byName = Object.fromEntries(stored.attempts.map((a) => [a.fullName, a]));
  expect(byName['faults hangs mid-call in process']).toMatchObject({
    outcome: 'failed',
    failureMessage: expect.stringMatching(/^interrupted: jest \(pid \d+ on .+\) ended without finishing it/),
  });
  const report = await m3On(run, ['report', runId, '--json'], 'main');
  expect({ status: report.status, verdict: (JSON.parse(report.stdout) as { verdict: string }).verdict }).toEqual({
    status: 1,
    verdict: 'failed',
  });
  expect((await m3Runs(run, 'main')).stderr).toBe(''); // closed once
});

test('a later plain `jest` run closes the run a SIGKILLed one left running, and says so', async () => {
  // One file, so Jest runs it in band: Jest is the only process of the run to kill.
  const killed = startPlainJest(['tests/inprocess']);
  runs.push(killed);
  await waitForMarker(killed, 'ready-inprocess');
  const worker = await waitForMarker(killed, 'worker-inprocess');
  expect(worker.pid).toBe(killed.child.pid);
  const runId = (await m3Runs(killed, 'main')).runs[0]!.runId;
  process.kill(killed.child.pid as number, 'SIGKILL');
  expect((await killed.exited).signal).toBe('SIGKILL');

  const later = await startPlainJest(['tests/passes'], killed).exited;
  expect(later.status).toBe(0);
  expect(later.output).toContain(
    `m3: closed run ${runId} as interrupted (the run was interrupted: jest (pid ${String(killed.child.pid)} on `,
  );
  const saved = await withStore(killed.folder, (store) => store.listRuns());
  expect(saved.map((r) => [r.runId === runId ? 'killed' : 'later', r.status])).toEqual([
    ['later', 'passed'],
    ['killed', 'interrupted'],
  ]);
  expect(saved[0]!.processes).toBeUndefined(); // a finished run keeps no owners
});
