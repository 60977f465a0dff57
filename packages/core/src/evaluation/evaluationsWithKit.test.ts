/**
 * End to end through the kit: evaluate a real execution's result and trace, judge an answer on a
 * local OpenAI-compatible endpoint, save everything to SQLite, and aggregate it back.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMathServer } from '@sf-m3/example-servers';
import { SQLiteExecutionStore } from '@sf-m3/store-sqlite';
import { RequiredEvaluationError } from '../errors/RequiredEvaluationError';
import { LLMJudge } from '../judge/LLMJudge';
import { CallTool } from '../kit/DirectSpec';
import { MCPTestKit } from '../kit/MCPTestKit';
import { InProcessServer } from '../servers/InProcessServer';
import { FakeChatCompletionsServer } from '../testing/FakeChatCompletionsServer';

const KEY_ENV = 'M3_KIT_TEST_JUDGE_KEY';
const KEY = 'sk-kit-judge-canary-5e6f7a8b9c0d';

describe('evaluations through the kit, saved to SQLite', () => {
  let dir: string;
  let fake: FakeChatCompletionsServer;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'm3-eval-'));
    fake = new FakeChatCompletionsServer({ model: 'judge-fixture' });
    process.env[KEY_ENV] = KEY;
  });
  afterEach(async () => {
    await fake.close();
    delete process.env[KEY_ENV];
    await rm(dir, { recursive: true, force: true });
  });

  it('saves every verdict with its evidence, fails required ones, aggregates, and never stores the judge key', async () => {
    const path = join(dir, 'nested', 'executions.sqlite');
    const store = new SQLiteExecutionStore(path);
    const kit = new MCPTestKit({ store, suiteName: 'math', caseId: 'add' });
    const server = new InProcessServer({ name: 'math', factory: createMathServer });
    const result = await kit.run(
      new CallTool({
        server,
        tool: 'add_tool',
        arguments: { a: 2, b: 3 },
        caseId: 'add',
        labels: { model: 'fixture' },
      }),
    );

    // Built-ins and a custom evaluator over the execution's result and trace.
    const completed = await kit.evaluate(result, 'm3.execution.completed.v1');
    expect([completed.status, completed.executionId, completed.caseId]).toEqual(['passed', result.executionId, 'add']);
    const succeeded = await kit.evaluate(result, 'm3.tool_call.succeeded.v1');
    expect(succeeded.status).toBe('passed');
    expect(succeeded.rationale).toContain("execution's direct result");
    expect((await kit.evaluate(result.directResult, 'm3.output.has_text.v1')).status).toBe('passed');
    kit.registerEvaluator('example.math.v1', (ctx) => {
      const calls = ctx.trace?.toolCalls ?? [];
      const used = calls.map((c) => c.tool.value);
      const answerOk = JSON.stringify(ctx.subject).includes('5');
      return {
        status: answerOk && used.includes('add_tool') ? 'passed' : 'failed',
        score: answerOk ? 1 : 0,
        rationale: `tools=${used.join(',')}`,
        metrics: { toolCalls: calls.length },
      };
    });
    const custom = await kit.evaluate(result.directResult, 'example.math.v1', { metadata: { variant: 'a' } });
    expect(custom).toMatchObject({ status: 'passed', rationale: 'tools=add_tool', metrics: { toolCalls: 1 } });

    // A judge on a local endpoint, with a key that the reply echoes back.
    const { baseUrl } = await fake.start();
    const judge = new LLMJudge({
      model: 'judge-fixture',
      baseUrl,
      apiKeyEnv: KEY_ENV,
      responseMode: 'json_schema',
      rubricId: 'math.answer',
      rubricVersion: '1',
    });
    fake.enqueue({ content: { score: 0.95, rationale: `correct; header was Bearer ${KEY}`, abstain: false } });
    const judged = await kit.judgeResponse({
      name: 'answer.correctness.v1',
      input: 'What is 2 + 3?',
      expected: 'The answer is 5.',
      actual: 'It is 5.',
      judge,
      executionId: result.executionId,
    });
    expect(judged).toMatchObject({ status: 'passed', score: 0.95, caseId: 'add' });
    expect(judged.rationale).not.toContain(KEY);
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);

    // A required judge failure is saved, then thrown; the kit remembers it even if caught.
    fake.enqueue({ content: { score: 0.2, rationale: 'wrong number', abstain: false } });
    await expect(
      kit.judgeResponse({
        name: 'answer.correctness.v1',
        input: 'What is 2 + 3?',
        expected: 'The answer is 5.',
        actual: 'It is 6.',
        judge,
        executionId: result.executionId,
        required: true,
      }),
    ).rejects.toBeInstanceOf(RequiredEvaluationError);
    expect(kit.requiredFailures().map((r) => [r.evaluator, r.status])).toEqual([['answer.correctness.v1', 'failed']]);
    await kit.close();
    await store.close();

    // Reopen: every row is there, aggregated per evaluator and per judge model.
    const reopened = new SQLiteExecutionStore(path);
    const rows = await reopened.listEvaluations({ executionId: result.executionId });
    expect(rows.map((r) => r.evaluator).sort()).toEqual([
      'answer.correctness.v1',
      'answer.correctness.v1',
      'example.math.v1',
      'm3.execution.completed.v1',
      'm3.output.has_text.v1',
      'm3.tool_call.succeeded.v1',
    ]);
    const judgeRow = rows.find((r) => r.evaluator === 'answer.correctness.v1' && r.status === 'passed');
    expect(judgeRow?.provenance).toMatchObject({
      model: 'judge-fixture',
      endpointHost: new URL(baseUrl).host,
      responseMode: 'json_schema',
      rubricId: 'math.answer',
      threshold: 0.8,
      requestId: 'req_fake_1',
      usage: { totalTokens: 15 },
    });
    const perEvaluator = await reopened.aggregateEvaluations({
      filters: { executionId: [result.executionId] },
      groupBy: ['evaluator'],
    });
    const rates = Object.fromEntries(perEvaluator.groups.map((g) => [g.key.evaluator, g.values.passRate]));
    expect(rates).toEqual({
      'answer.correctness.v1': 0.5,
      'example.math.v1': 1,
      'm3.execution.completed.v1': 1,
      'm3.output.has_text.v1': 1,
      'm3.tool_call.succeeded.v1': 1,
    });
    const perJudge = await reopened.aggregateEvaluations({
      filters: { evaluator: ['answer.correctness.v1'] },
      groupBy: ['judgeModel', 'rubricId', 'model'],
    });
    expect(perJudge.groups).toHaveLength(1);
    expect(perJudge.groups[0]?.key).toEqual({ judgeModel: 'judge-fixture', rubricId: 'math.answer', model: 'fixture' });
    expect(perJudge.groups[0]?.values.statusCounts).toMatchObject({ passed: 1, failed: 1 });
    await reopened.close();

    // The key appears in no byte of the database files (main file, WAL, shared memory).
    const files = (await readdir(join(dir, 'nested'))).filter((f) => f.startsWith('executions.sqlite'));
    expect(files).toContain('executions.sqlite');
    for (const file of files) {
      const bytes = await readFile(join(dir, 'nested', file));
      expect(bytes.includes(Buffer.from(KEY))).toBe(false);
      expect(bytes.includes(Buffer.from(KEY, 'utf16le'))).toBe(false);
    }
  });

  it('keeps an ExecutionResult lineage stable as verdicts accumulate, so required stays sticky on it', async () => {
    const kit = new MCPTestKit({ caseId: 'add' });
    const server = new InProcessServer({ name: 'math', factory: createMathServer });
    const result = await kit.run(new CallTool({ server, tool: 'add_tool', arguments: { a: 2, b: 3 } }));
    let pass = false;
    kit.registerEvaluator('gate.v1', () => pass);
    await expect(kit.evaluate(result, 'gate.v1', { required: true })).rejects.toBeInstanceOf(RequiredEvaluationError);
    expect(result.evaluations).toHaveLength(1);
    pass = true;
    const again = await kit.evaluate(result, 'gate.v1');
    expect(again.subjectDigest).toBe(kit.evaluationResults()[0]?.subjectDigest);
    expect(again.required).toBe(true);
    expect(kit.requiredFailures()).toEqual([]);
    await kit.close();
  });
});
