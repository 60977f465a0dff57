// End-to-end: `m3 test --execution-timeout` on a run whose executions pass their deadline — an ACP
// agent that never answers a prompt (the stalling fixture agent) and a direct execution against a
// stdio server that never answers `initialize`. The summary, `m3 report`, `--json` and feedback.json
// say where each one was: stage, operation, elapsed and timeout ms; no process outlives its run.
import { isAlive } from '../packages/core/src/transport/processTree';
import {
  copyFixture,
  ensureBuilt,
  printedRunId,
  readFeedback,
  removeFixture,
  runM3Async,
  runM3InProcess,
  withStore,
} from './cli.testkit';

jest.setTimeout(240_000);

/**
 * The run's deadline in seconds. The agent spends ~0.6 s starting before its first prompt on an idle
 * machine; 3 s keeps the deadline in the prompt wait (what this test names) under `npm test`'s load.
 */
const TIMEOUT_SECONDS = 3;

beforeAll(() => {
  ensureBuilt();
});

describe('m3 test --execution-timeout on executions that stall', () => {
  let folder: string;
  beforeAll(() => {
    folder = copyFixture('cli-timeout');
  });
  afterAll(() => removeFixture(folder));

  test('the summary, m3 report, --json and feedback.json name each timed-out execution and where it was', async () => {
    const run = await runM3Async(['test', '--execution-timeout', String(TIMEOUT_SECONDS)], folder);
    expect(run.stdout).toContain('attempts    0 passed, 2 failed, 0 skipped, 0 todo');
    expect(run.status).toBe(1);
    const runId = printedRunId(run.stdout);
    const timeoutMs = TIMEOUT_SECONDS * 1000;

    // The printed section: one entry per timed-out execution, sorted by test name.
    const section = (text: string) => /^timeouts {4}.*\n(?:(?: {2}.*)\n)*/m.exec(text)?.[0];
    const printed = section(run.stdout);
    expect(printed).toBeDefined();
    const lines = printed!.trimEnd().split('\n');
    expect(lines[0]).toBe('timeouts    2 execution(s) passed their deadline');
    expect(lines[1]).toBe('  ⏱ mute lists tools');
    expect(lines[2]).toMatch(
      new RegExp(
        `^ {6}direct mute-mcp {2}stage=execution_startup {2}operation=list_tools {2}elapsed \\d+ ms of ${timeoutMs} ms$`,
      ),
    );
    expect(lines[3]).toBe('  ⏱ stalling quotes a parcel [server=example-mcp] [agent=acp:fixture]');
    expect(lines[4]).toMatch(
      new RegExp(
        `^ {6}acp:fixture {2}stage=waiting_for_harness_response {2}operation=session/prompt {2}` +
          `elapsed \\d+ ms of ${timeoutMs} ms$`,
      ),
    );
    expect(lines).toHaveLength(5);

    // What the store holds agrees: both executions timed out, each trace with its deadline diagnostic.
    const saved = await withStore(folder, async (store) => {
      const executions = await store.listExecutions({ runId });
      const traces = await Promise.all(executions.map((e) => store.getTrace(e.executionId)));
      const views = await Promise.all(executions.map((e) => store.getTraceView(e.executionId)));
      return { executions, traces, views };
    });
    expect(saved.executions.map((e) => [e.kind, e.outcome]).sort()).toEqual([
      ['agent', 'timed_out'],
      ['direct', 'timed_out'],
    ]);
    expect(saved.views.flatMap((v) => v.diagnostics.map((d) => [d.code, d.stage, d.operation])).sort()).toEqual([
      ['deadline_exceeded', 'execution_startup', 'list_tools'],
      ['execution_timeout', 'waiting_for_harness_response', 'session/prompt'],
    ]);

    // feedback.json holds the same rows, with the execution ids and the diagnostic codes.
    const feedback = readFeedback(folder, runId);
    expect(feedback.schemaVersion).toBe(1);
    const agentExecution = saved.executions.find((e) => e.kind === 'agent')!;
    const directExecution = saved.executions.find((e) => e.kind === 'direct')!;
    expect(feedback.timeouts).toEqual([
      {
        executionId: directExecution.executionId,
        kind: 'direct',
        testName: 'mute lists tools',
        caseId: directExecution.caseId,
        server: 'mute-mcp',
        harness: null,
        model: null,
        trial: null,
        code: 'deadline_exceeded',
        stage: 'execution_startup',
        operation: 'list_tools',
        elapsedMs: expect.any(Number),
        timeoutMs,
        message: expect.stringContaining(`deadline of ${timeoutMs} ms`),
      },
      {
        executionId: agentExecution.executionId,
        kind: 'agent',
        testName: 'stalling quotes a parcel [server=example-mcp] [agent=acp:fixture]',
        caseId: 'stalling::stalling quotes a parcel',
        server: 'example-mcp',
        harness: 'acp',
        model: 'fixture',
        trial: '1',
        code: 'execution_timeout',
        stage: 'waiting_for_harness_response',
        operation: 'session/prompt',
        elapsedMs: expect.any(Number),
        timeoutMs,
        message: expect.stringContaining(`deadline of ${timeoutMs} ms`),
      },
    ]);
    for (const row of feedback.timeouts as Array<{ elapsedMs: number }>) {
      expect(row.elapsedMs).toBeGreaterThanOrEqual(timeoutMs);
    }

    // `m3 report` prints the same section from the database; `--json` carries the same rows.
    const report = await runM3Async(['report', runId], folder);
    expect(report.status).toBe(1);
    expect(section(report.stdout)).toBe(printed);
    // The JSON through the CLI's main in this process (the bin printed the section just above).
    const json = await runM3InProcess(['report', runId, '--json'], folder);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout).timeouts).toEqual(feedback.timeouts);

    // No agent or server process outlived its execution (the stalling agent never starts the
    // example server it is told about, so its trace records the agent alone).
    const pids = saved.traces
      .flatMap((trace) => trace.events)
      .filter((event) => event.kind === 'process.started')
      .flatMap((event) => {
        const payload = event.payload as Record<string, unknown>;
        return [payload.pid, payload.proxyPid];
      })
      .filter((pid): pid is number => typeof pid === 'number');
    expect(pids).toHaveLength(2);
    expect(pids.filter(isAlive)).toEqual([]);
  });
});
