// End-to-end: agent suites (describe.m3 with agents, test.m3) run through the real `m3` bin and the
// real Jest: one execution per server × agent × trial sharing one case id, labels, the summary's
// per-harness/model/case pass rates, and `--harness` replacing the suite's models.
import { FakeChatCompletionsServer, trailingToolResults } from '@sf-m3/core/testing';
import { isAlive } from '../packages/core/src/transport/processTree';
import {
  copyFixture,
  ensureBuilt,
  printedRunId,
  readFeedback,
  removeFixture,
  runM3Async,
  withStore,
} from './cli.testkit';

jest.setTimeout(240_000);

beforeAll(() => {
  ensureBuilt();
});

/** Every pid a trace recorded as started (agent, capture proxy, MCP server). */
function startedPids(events: ReadonlyArray<{ kind: string; payload: Record<string, unknown> }>): number[] {
  return events
    .filter((event) => event.kind === 'process.started')
    .flatMap((event) => [event.payload.pid, event.payload.proxyPid])
    .filter((pid): pid is number => typeof pid === 'number');
}

describe('m3 test --trials 3 on an ACP agent suite', () => {
  let folder: string;
  beforeAll(() => {
    folder = copyFixture('cli-agents');
  });
  afterAll(() => removeFixture(folder));

  test('one execution per server × agent × trial sharing one case id, labelled, with the wire call in each trace', async () => {
    const run = await runM3Async(['test', 'tests/shipping.test.js', '--trials', '3'], folder);
    expect(run.stdout).toContain('attempts    3 passed, 0 failed, 0 skipped, 0 todo');
    expect(run.status).toBe(0);
    expect(`${run.stdout}${run.stderr}`).not.toContain('had no effect');
    const runId = printedRunId(run.stdout);

    const saved = await withStore(folder, async (store) => {
      const executions = await store.listExecutions({ runId });
      const traces = await Promise.all(executions.map((e) => store.getTrace(e.executionId)));
      const views = await Promise.all(executions.map((e) => store.getTraceView(e.executionId)));
      return { attempts: await store.listAttempts({ runId }), executions, traces, views };
    });
    expect(saved.attempts.map((a) => a.fullName).sort()).toEqual([
      'shipping quotes a parcel [server=example-mcp] [agent=acp:fixture] [trial 1/3]',
      'shipping quotes a parcel [server=example-mcp] [agent=acp:fixture] [trial 2/3]',
      'shipping quotes a parcel [server=example-mcp] [agent=acp:fixture] [trial 3/3]',
    ]);
    expect(saved.executions).toHaveLength(3);
    expect(saved.executions.every((e) => e.kind === 'agent' && e.outcome === 'completed')).toBe(true);
    expect(new Set(saved.executions.map((e) => e.caseId))).toEqual(new Set(['shipping::shipping quotes a parcel']));
    expect(saved.executions.map((e) => [e.labels.harness, e.labels.model, e.labels.trial]).sort()).toEqual([
      ['acp', 'fixture', '1'],
      ['acp', 'fixture', '2'],
      ['acp', 'fixture', '3'],
    ]);
    expect(saved.executions.map((e) => e.labels.metadata.harness_config)).toEqual(Array(3).fill('acp:fixture'));

    for (const [index, trace] of saved.traces.entries()) {
      // The tools/call frame the capture proxy saw between the agent and the server, and its answer.
      const wire = trace.events.filter((e) => e.origin === 'wire_observed');
      expect(wire.find((e) => e.kind === 'tool.call_requested')?.payload).toMatchObject({
        method: 'tools/call',
        params: { name: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } },
        policy: { decision: 'allowed' },
      });
      expect(wire.find((e) => e.kind === 'tool.result_received')?.payload).toMatchObject({
        result: { structuredContent: { amount: 9, currency: 'USD' } },
      });
      const [call] = saved.views[index]!.toolCalls;
      expect(call).toMatchObject({ correlation: 'correlated', status: 'success', server: 'example-mcp' });
      expect(saved.views[index]!.messages.filter((m) => m.role === 'assistant').map((m) => m.text)).toEqual([
        'quoted local',
      ]);
      // No agent, capture proxy or server process outlived its execution.
      const pids = startedPids(trace.events as never);
      expect(pids.length).toBeGreaterThanOrEqual(2);
      expect(pids.filter(isAlive)).toEqual([]);
    }

    // The summary's per-harness, per-model and per-case pass rates.
    expect(run.stdout).toMatch(/ {2}by harness\n(?:.*\n)*? {4}m3\.expect\.toHaveToolCall\s+acp\s+100\.0%.*3\/3\n/);
    expect(run.stdout).toMatch(
      / {2}by model\n(?:.*\n)*? {4}m3\.expect\.toHaveToolCall\s+acp:fixture\s+100\.0%.*3\/3\n/,
    );
    expect(run.stdout).toMatch(
      / {2}by case\n(?:.*\n)*? {4}m3\.expect\.toHaveToolCall\s+shipping › quotes a parcel\s+100\.0%.*3\/3\n/,
    );
    // `m3 report` reads the same rates back from the database.
    const report = await runM3Async(['report', runId], folder);
    expect(report.status).toBe(0);
    expect(report.stdout).toContain('agents      pass rates of evaluations on agent executions\n');
    expect(report.stdout).toMatch(/ {4}m3\.expect\.toHaveToolCall\s+acp:fixture\s+100\.0%.*3\/3\n/);
    const feedback = readFeedback(folder, runId);
    expect(feedback.agentStats.byModel).toContainEqual(
      expect.objectContaining({ evaluator: 'm3.expect.toBeCompleted', harness: 'acp', model: 'fixture', passed: 3 }),
    );
  });

  test("--harness acp=other replaces the model label and keeps the suite's manifest", async () => {
    const run = await runM3Async(['test', 'tests/shipping.test.js', '--harness', 'acp=other'], folder);
    expect(run.stdout).toContain('attempts    1 passed, 0 failed, 0 skipped, 0 todo');
    expect(run.status).toBe(0);
    const runId = printedRunId(run.stdout);
    const executions = await withStore(folder, (store) => store.listExecutions({ runId }));
    expect(executions).toHaveLength(1);
    expect(executions[0]).toMatchObject({ kind: 'agent', outcome: 'completed' });
    expect(executions[0]!.labels).toMatchObject({ harness: 'acp', model: 'other', trial: '1' });
    expect(executions[0]!.labels.metadata.harness_config).toBe('acp:other');
    const attempts = await withStore(folder, (store) => store.listAttempts({ runId }));
    expect(attempts.map((a) => a.fullName)).toEqual([
      'shipping quotes a parcel [server=example-mcp] [agent=acp:other]',
    ]);
  });
});

describe('m3 test with the openai harness and --harness', () => {
  let folder: string;
  const model = new FakeChatCompletionsServer()
    .when({ afterToolResult: true }, (request) => ({ content: `quoted ${trailingToolResults(request)[0]?.text}` }))
    .when({}, { toolCalls: [{ name: 'example-mcp__shipping_quote', arguments: { weight_kg: 2, zone: 'local' } }] });
  let env: Record<string, string>;

  beforeAll(async () => {
    folder = copyFixture('cli-agents');
    const { baseUrl } = await model.start();
    env = { FAKE_MODEL_URL: baseUrl };
  });
  afterAll(async () => {
    await model.close();
    removeFixture(folder);
  });

  test("--harness openai=A,B replaces the suite's model and keeps its baseUrl and auth", async () => {
    const run = await runM3Async(
      ['test', 'tests/openai.test.js', '--harness', 'openai=cli-a,cli-b', '--trials', '2'],
      folder,
      env,
    );
    expect(run.stdout).toContain('attempts    4 passed, 0 failed, 0 skipped, 0 todo');
    expect(run.status).toBe(0);
    // Every model request reached the suite's loopback endpoint, naming only the command line's models.
    expect(new Set(model.modelRequests.map((r) => r.model))).toEqual(new Set(['cli-a', 'cli-b']));
    expect(model.modelRequests.every((r) => r.headers.authorization === undefined)).toBe(true);

    const runId = printedRunId(run.stdout);
    const saved = await withStore(folder, async (store) => ({
      attempts: await store.listAttempts({ runId }),
      executions: await store.listExecutions({ runId }),
    }));
    expect(saved.attempts.map((a) => a.fullName).sort()).toEqual([
      'openai quotes quotes a parcel [server=example-mcp] [agent=openai:cli-a] [trial 1/2]',
      'openai quotes quotes a parcel [server=example-mcp] [agent=openai:cli-a] [trial 2/2]',
      'openai quotes quotes a parcel [server=example-mcp] [agent=openai:cli-b] [trial 1/2]',
      'openai quotes quotes a parcel [server=example-mcp] [agent=openai:cli-b] [trial 2/2]',
    ]);
    const agentRuns = saved.executions.filter((e) => e.kind === 'agent');
    expect(agentRuns).toHaveLength(4);
    expect(new Set(agentRuns.map((e) => e.caseId)).size).toBe(1);
    expect(agentRuns.map((e) => `${e.labels.harness}:${e.labels.model}#${e.labels.trial}`).sort()).toEqual([
      'openai:cli-a#1',
      'openai:cli-a#2',
      'openai:cli-b#1',
      'openai:cli-b#2',
    ]);
    expect(run.stdout).toMatch(/by model\n(?:.*\n)*? {4}m3\.expect\.toHaveToolCall\s+openai:cli-a\s+100\.0%.*2\/2\n/);
    // No example server process outlived its execution.
    const traces = await withStore(folder, (store) => Promise.all(agentRuns.map((e) => store.getTrace(e.executionId))));
    const pids = traces.flatMap((trace) => startedPids(trace.events as never));
    expect(pids).toHaveLength(4);
    expect(pids.filter(isAlive)).toEqual([]);
  });

  test('--harness acp=... on a suite without an acp entry fails the file with the fix named', async () => {
    const run = await runM3Async(['test', 'tests/openai.test.js', '--harness', 'acp=fixture'], folder, env);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "--harness acp=fixture needs a describe.m3 agents entry with a manifest: add agents: [{ harness: 'acp', " +
        "manifest: { command, args }, models: ['...'] }] to describe.m3('openai quotes')",
    );
  });

  test('the summary, --json and feedback.json show pass rates per harness, model and case', async () => {
    const run = await runM3Async(['test', 'tests/openai.test.js', '--trials', '3', '--json'], folder, env);
    expect(run.status).toBe(0);
    const summary = JSON.parse(run.stdout);
    const toolCall = (rows: Array<Record<string, unknown>>) =>
      rows.filter((r) => r.evaluator === 'm3.expect.toHaveToolCall');
    expect(toolCall(summary.agents.byHarness)).toEqual([
      expect.objectContaining({ harness: 'openai', passed: 3, expected: 3, executionCount: 3 }),
    ]);
    expect(toolCall(summary.agents.byModel)).toEqual([
      expect.objectContaining({ harness: 'openai', model: 'suite-model', passed: 3, expected: 3 }),
    ]);
    expect(toolCall(summary.agents.byCase)).toEqual([
      expect.objectContaining({ caseId: expect.any(String), passed: 3, expected: 3, caseCount: 1, casesAllPassed: 1 }),
    ]);
    expect(readFeedback(folder, summary.runId).agentStats).toEqual(summary.agents);
  });
});
