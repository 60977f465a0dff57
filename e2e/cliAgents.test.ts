// End-to-end: agent suites (describe.m3 with agents, test.m3) run through the real `m3` bin and the
// real Jest: one execution per server × agent × trial sharing one case id, labels, the summary's
// per-harness/model/case pass rates, and `--harness` replacing the suite's models.
import { join } from 'node:path';
import type { ExecutionStore } from '@sf-m3/core';
import { FakeChatCompletionsServer, trailingToolResults } from '@sf-m3/core/testing';
import { SQLiteExecutionStore } from '@sf-m3/store-sqlite';
import { copyFixture, ensureBuilt, printedRunId, readFeedback, removeFixture, runM3Async } from './cli.testkit';

jest.setTimeout(240_000);

async function withStore<T>(folder: string, read: (store: ExecutionStore) => Promise<T>): Promise<T> {
  const store = new SQLiteExecutionStore(join(folder, '.m3', 'executions.sqlite'));
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

beforeAll(() => {
  ensureBuilt();
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
