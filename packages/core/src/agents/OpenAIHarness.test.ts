import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createExampleServer, exampleServerBin } from '@sf-m3/example-servers';
import { waitForExit } from '@sf-m3/test-utils/client';
import { UnsupportedFeature } from '../errors';
import { MCPTestKit } from '../kit/MCPTestKit';
import { InProcessServer } from '../servers/InProcessServer';
import { StdioServer } from '../servers/StdioServer';
import {
  FakeChatCompletionsServer,
  type FakeChatReply,
  type RecordedChatRequest,
} from '../testing/FakeChatCompletionsServer';
import { holdNextDeadline } from './heldDeadline.testkit';

const example = new InProcessServer({ name: 'example', factory: createExampleServer });
const stdioExample = new StdioServer({ name: 'shipping', command: process.execPath, args: [exampleServerBin] });

beforeAll(() => {
  if (!existsSync(exampleServerBin)) {
    execFileSync('npx', ['tsc', '-b', 'examples/servers'], { cwd: join(__dirname, '..', '..', '..', '..') });
  }
}, 120_000);

/** The tool messages the model was sent in a request. */
function toolMessages(request: RecordedChatRequest): { content: string }[] {
  const body = request.body as { messages: { role: string; content: string }[] };
  return body.messages.filter((m) => m.role === 'tool');
}

function offeredTools(request: RecordedChatRequest): string[] {
  const body = request.body as { tools?: { function: { name: string } }[] };
  return (body.tools ?? []).map((t) => t.function.name).sort();
}

/** Asks for `normalize_customer` once, then answers with the tool's text. */
function toolThenAnswer(functionName = 'example__normalize_customer') {
  return [
    {
      toolCalls: [{ id: 'call_1', name: functionName, arguments: { name: 'ada lovelace' } }],
      usage: { promptTokens: 11, completionTokens: 3 },
    },
    (request: RecordedChatRequest) => ({
      content: `customer: ${toolMessages(request).at(-1)?.content ?? 'none'}`,
      usage: { promptTokens: 20, completionTokens: 4 },
    }),
  ];
}

/**
 * A reply that notes when its request arrives: `arrived` resolves as the fake model starts answering
 * it, so a test cancels a turn that is surely in flight, however long the turn took to get there.
 */
function arrival(): { arrived: Promise<void>; reply: (reply: FakeChatReply) => () => FakeChatReply } {
  let arrive = (): void => undefined;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  return {
    arrived,
    reply: (reply) => () => {
      arrive();
      return reply;
    },
  };
}

describe('the openai harness', () => {
  let fake: FakeChatCompletionsServer;
  let baseUrl: string;
  let kit: MCPTestKit;

  beforeEach(async () => {
    fake = new FakeChatCompletionsServer();
    ({ baseUrl } = await fake.start());
    kit = new MCPTestKit();
  });

  afterEach(async () => {
    await kit.close();
    await fake.close();
  });

  const agent = (extra: Record<string, unknown> = {}) =>
    kit.agents([{ harness: 'openai', model: 'fake-model', baseUrl, auth: 'none', ...extra }])[0]!;

  it('runs a tool call through MCP and answers; the trace correlates wire and reported evidence', async () => {
    fake.enqueue(...toolThenAnswer());
    const result = await agent().run('Normalize Ada', { servers: [example] });

    expect(result.snapshot.outcome).toBe('completed');
    expect(result.turns).toHaveLength(1);
    const [turn] = result.turns;
    expect(turn!.outcome).toBe('completed');
    expect(turn!.response?.text).toBe('customer: {"customer_id":"ada-lovelace"}');
    expect(offeredTools(fake.requests[0]!)).toContain('example__normalize_customer');

    const view = result.traceView;
    expect(view.runtime.kind).toBe('openai');
    expect(view.summary.turnCount).toBe(1);
    expect(view.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(view.toolCalls).toHaveLength(1);
    const call = view.toolCalls[0]!;
    expect(call.correlation).toBe('correlated');
    expect(call.wire.state).toBe('observed');
    expect(call.reported.state).toBe('observed');
    expect(call.providerCallId).toBe('call_1');
    expect(call.tool.value).toBe('normalize_customer');
    expect(call.server).toBe('example');
    expect(call.status).toBe('success');
    expect(call.conflicts).toEqual([]);
    expect(call.turnId).toBe(turn!.turnId);
    expect(view.summary.usage.state).toBe('observed');
    expect(view.summary.usage.value).toMatchObject({ inputTokens: 31, outputTokens: 7, totalTokens: 38 });

    const saved = await kit.getTraceView(result.executionId);
    expect(saved.toJSON()).toEqual(view.toJSON());
    const record = await kit.store.getExecution(result.executionId);
    expect(record.kind).toBe('agent');
    expect(record.labels).toMatchObject({ harness: 'openai', model: 'fake-model', trial: '1', server: 'example' });
  });

  it('tools: [] offers nothing and answers a call with an error the trace records', async () => {
    fake.enqueue(...toolThenAnswer());
    const result = await agent().run('Normalize Ada', { servers: [example], tools: [] });

    expect(offeredTools(fake.requests[0]!)).toEqual([]);
    expect(toolMessages(fake.requests[1]!)[0]!.content).toMatch(/not allowed by this test's tool policy/);
    const [call] = result.traceView.toolCalls;
    expect(call!.correlation).toBe('reported_only');
    expect(call!.wire.state).not.toBe('observed');
    expect(call!.reported.value?.status).toEqual({ state: 'observed', value: 'denied' });
    expect(
      result.trace.events.filter((e) => e.kind === 'tool.call_requested' && e.origin !== 'harness_reported'),
    ).toEqual([]);
  });

  it('qualified names allow only those tools', async () => {
    fake.enqueue(...toolThenAnswer('example__shipping_quote'));
    const result = await agent().run('Quote', { servers: [example], tools: ['example:normalize_customer'] });

    expect(offeredTools(fake.requests[0]!)).toEqual(['example__normalize_customer']);
    expect(result.traceView.toolCalls[0]!.correlation).toBe('reported_only');
    expect(toolMessages(fake.requests[1]!)[0]!.content).toMatch(/example:shipping_quote' is not allowed/);
  });

  it('omitted tools allow every tool', async () => {
    fake.enqueue({ content: 'nothing to do' });
    await agent().run('Hi', { servers: [example] });
    expect(offeredTools(fake.requests[0]!)).toEqual(
      expect.arrayContaining(['example__normalize_customer', 'example__shipping_quote']),
    );
  });

  it('fails the turn with a diagnostic when maxRounds is reached', async () => {
    const asksAgain = { toolCalls: [{ name: 'example__normalize_customer', arguments: { name: 'x' } }] };
    fake.enqueue(asksAgain, asksAgain, asksAgain);
    const result = await agent({ maxRounds: 2 }).run('Loop', { servers: [example] });

    expect(fake.requests).toHaveLength(2);
    expect(result.snapshot.outcome).toBe('failed');
    expect(result.turns[0]!.outcome).toBe('failed');
    expect(result.turns[0]!.error?.code).toBe('max_rounds_exceeded');
    expect(result.traceView.diagnostics.map((d) => JSON.stringify(d))).toEqual(
      expect.arrayContaining([expect.stringContaining('max_rounds_exceeded')]),
    );
    expect(result.traceView.toolCalls).toHaveLength(2);
  });

  it('finishes timed_out with a diagnostic at the deadline and resolves instead of throwing', async () => {
    // The reply would come after the test's own timeout: a run that waited for it fails the test.
    fake.enqueue({ content: 'late', delayMs: 60_000 });
    const result = await agent().run('Slow', { servers: [example], timeoutMs: 1_500 });

    expect(result.snapshot.outcome).toBe('timed_out');
    expect(result.turns[0]!.outcome).toBe('timed_out');
    const diagnostic = result.trace.events.find(
      (e) => e.kind === 'diagnostic' && e.payload.code === 'execution_timeout',
    );
    expect(diagnostic?.payload).toMatchObject({ stage: 'model_call', timeoutMs: 1_500 });
    expect(String(diagnostic?.payload.operation)).toMatch(/chat\.completions\.create/);
    expect(diagnostic?.payload.elapsedMs).toBeGreaterThanOrEqual(1_400);
    expect((await kit.store.getExecution(result.executionId)).outcome).toBe('timed_out');
  });

  describe('a turn that does not finish keeps the assistant text of its rounds (partial, as acp does)', () => {
    /** Two rounds that each say something and ask for a tool, before whatever comes third. */
    const saysAndAsks = (text: string, id: string) => ({
      content: text,
      toolCalls: [{ id, name: 'example__normalize_customer', arguments: { name: 'ada lovelace' } }],
    });

    it('timed_out: the text of the rounds before the deadline, joined', async () => {
      // The deadline fires as the third round's request arrives, however long the first two took.
      const deadline = holdNextDeadline(1_500);
      fake.enqueue(saysAndAsks('Looking Ada up.', 'c1'), saysAndAsks('Checking once more.', 'c2'), () => {
        deadline.fire();
        return { content: 'late', delayMs: 20_000 };
      });
      const result = await agent().run('Normalize Ada', { servers: [example], timeoutMs: 1_500 });

      expect(fake.requests).toHaveLength(3);
      expect(result.snapshot.outcome).toBe('timed_out');
      expect(result.turns[0]!.outcome).toBe('timed_out');
      expect(result.turns[0]!.response?.text).toBe('Looking Ada up.\n\nChecking once more.');
      expect(result.traceView.toolCalls).toHaveLength(2);
    });

    it('cancelled: the text of the rounds before kit.close()', async () => {
      const second = arrival();
      fake.enqueue(saysAndAsks('Looking Ada up.', 'c1'), second.reply({ content: 'late', delayMs: 60_000 }));
      const session = await agent().session({ servers: [example] });
      const sending = session.send('Normalize Ada');
      await second.arrived;
      await kit.close();
      const turn = await sending;
      expect(turn.outcome).toBe('cancelled');
      expect(turn.response?.text).toBe('Looking Ada up.');
      kit = new MCPTestKit();
    });

    it('failed mid-loop (the endpoint errs in round 2): the text of round 1 and the provider error', async () => {
      fake.enqueue(saysAndAsks('Looking Ada up.', 'c1'), { status: 500 });
      const result = await agent().run('Normalize Ada', { servers: [example] });

      expect(result.turns[0]!.outcome).toBe('failed');
      expect(result.turns[0]!.error?.code).toBe('provider_error');
      expect(result.turns[0]!.response?.text).toBe('Looking Ada up.');
    });

    it('failed at maxRounds: the text of every round', async () => {
      fake.enqueue(saysAndAsks('One.', 'c1'), saysAndAsks('Two.', 'c2'));
      const result = await agent({ maxRounds: 2 }).run('Loop', { servers: [example] });

      expect(result.turns[0]!.error?.code).toBe('max_rounds_exceeded');
      expect(result.turns[0]!.response?.text).toBe('One.\n\nTwo.');
    });

    it('an interrupted turn with no text yet still has no response', async () => {
      fake.enqueue({ content: 'late', delayMs: 20_000 });
      const result = await agent().run('Slow', { servers: [example], timeoutMs: 1_000 });
      expect(result.turns[0]!.outcome).toBe('timed_out');
      expect(result.turns[0]!.response).toBeNull();
    });
  });

  it('a session keeps the conversation over two turns; forTurn splits the view', async () => {
    fake.enqueue(...toolThenAnswer(), (request) => ({
      content: `you said ${(request.body as { messages: unknown[] }).messages.length} things`,
    }));
    const session = await agent().session({ servers: [example] });
    const first = await session.send('Normalize Ada');
    const second = await session.send('And now?');
    const result = await session.close();

    expect(session.result).toBe(result);
    expect(result.turns.map((t) => t.turnId)).toEqual([first.turnId, second.turnId]);
    expect(second.response?.text).toBe('you said 5 things');
    expect(first.traceView?.forTurn(first.turnId).toolCalls).toHaveLength(1);
    expect(result.traceView.forTurn(second.turnId).toolCalls).toHaveLength(0);
    expect(result.traceView.forTurn(second.turnId).messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(result.traceView.summary.turnCount).toBe(2);
  });

  it('labels trials by harness, model and trial so evaluations aggregate by model', async () => {
    const models = kit.agents([{ harness: 'openai', models: ['a', 'b'], baseUrl, auth: 'none' }], { trials: 2 });
    expect(models.map((m) => `${m.model}/${m.trial}`)).toEqual(['a/1', 'a/2', 'b/1', 'b/2']);
    expect(models[1]!.labels).toEqual({ harness: 'openai', model: 'a', trial: '2' });
    kit.registerEvaluator('answered', (context) => String(context.subject).startsWith('ok'));
    const replies = ['ok', 'ok', 'ok', 'no'];
    fake.enqueue(...replies.map((content) => ({ content })));
    for (const selection of models) {
      const result = await selection.run('Answer', { servers: [example], caseId: 'answer' });
      await kit.evaluate(result.turns[0]!.response?.text ?? '', 'answered', { executionId: result.executionId });
    }
    const report = await kit.store.aggregateEvaluations({ filters: { evaluator: ['answered'] }, groupBy: ['model'] });
    const rates = Object.fromEntries(report.groups.map((g) => [g.key.model, g.values.passRate]));
    expect(rates).toEqual({ a: 1, b: 0.5 });
  });

  it('kit.close() closes open sessions and saves them', async () => {
    const session = await agent().session({ servers: [example] });
    await kit.close();
    expect(session.result?.snapshot.outcome).toBe('completed');
    kit = new MCPTestKit();
  });

  it('kit.close() cancels a turn in flight; the send resolves cancelled', async () => {
    const slowReply = arrival();
    fake.enqueue(slowReply.reply({ content: 'late', delayMs: 60_000 }));
    const session = await agent().session({ servers: [example] });
    const sending = session.send('Slow');
    await slowReply.arrived;
    await kit.close();
    const turn = await sending;
    expect(turn.outcome).toBe('cancelled');
    expect(session.result?.snapshot.outcome).toBe('cancelled');
    expect(session.result?.traceView.summary.turnCount).toBe(1);
    kit = new MCPTestKit();
  });

  it('a missing key fails the execution with a message naming the variable, never throwing', async () => {
    const [selection] = kit.agents([
      { harness: 'openai', model: 'm', baseUrl, apiKeyEnv: 'M3_TEST_AGENT_KEY_THAT_IS_NOT_SET' },
    ]);
    const result = await selection!.run('Hi', { servers: [example] });
    expect(result.snapshot.outcome).toBe('failed');
    expect(result.error?.code).toBe('credential_missing');
    expect(result.error?.message).toMatch(/M3_TEST_AGENT_KEY_THAT_IS_NOT_SET/);
    expect(fake.requests).toHaveLength(0);
  });

  it('a key of only whitespace counts as missing, as it does for judges', async () => {
    process.env.M3_TEST_AGENT_BLANK_KEY = '   ';
    try {
      const [selection] = kit.agents([
        { harness: 'openai', model: 'm', baseUrl, apiKeyEnv: 'M3_TEST_AGENT_BLANK_KEY' },
      ]);
      const result = await selection!.run('Hi', { servers: [example] });
      expect(result.error?.code).toBe('credential_missing');
      expect(fake.requests).toHaveLength(0);
    } finally {
      delete process.env.M3_TEST_AGENT_BLANK_KEY;
    }
  });

  it('sends the key from apiKeyEnv and never stores it', async () => {
    process.env.M3_TEST_AGENT_KEY = 'sk-agent-secret-123456789';
    try {
      fake.enqueue({ content: 'echo sk-agent-secret-123456789' });
      const [selection] = kit.agents([{ harness: 'openai', model: 'm', baseUrl, apiKeyEnv: 'M3_TEST_AGENT_KEY' }]);
      const result = await selection!.run('Hi', { servers: [example] });
      expect(fake.requests[0]!.headers.authorization).toBe('Bearer sk-agent-secret-123456789');
      expect(JSON.stringify(result.trace.toJSON())).not.toContain('sk-agent-secret-123456789');
      expect(result.turns[0]!.response?.text).not.toContain('sk-agent-secret-123456789');
    } finally {
      delete process.env.M3_TEST_AGENT_KEY;
    }
  });

  it('uses several servers in one execution, a stdio one included, and reaps its process', async () => {
    fake.enqueue(
      {
        toolCalls: [
          { id: 'q', name: 'shipping__shipping_quote', arguments: { weight_kg: 2, zone: 'local' } },
          { id: 'n', name: 'example__normalize_customer', arguments: { name: 'Ada' } },
        ],
      },
      { content: 'done' },
    );
    const result = await agent().run('Quote and normalize', { servers: [stdioExample, example] });

    expect(result.snapshot.outcome).toBe('completed');
    const calls = result.traceView.toolCalls;
    expect(calls.map((c) => [c.server, c.tool.value, c.correlation])).toEqual([
      ['shipping', 'shipping_quote', 'correlated'],
      ['example', 'normalize_customer', 'correlated'],
    ]);
    const record = await kit.store.getExecution(result.executionId);
    expect(record.labels.server).toBeNull();
    const started = result.trace.events.find((e) => e.kind === 'process.started');
    expect(await waitForExit(started!.payload.pid as number)).toBe(true);
  });

  it('submit streams events to execution.finished; cancel finishes the execution cancelled', async () => {
    fake.enqueue({ content: 'hello' });
    const handle = agent().submit('Hi', { servers: [example] });
    const kinds: string[] = [];
    for await (const event of handle.events()) kinds.push(event.kind);
    expect(kinds[0]).toBe('execution.created');
    expect(kinds.at(-1)).toBe('execution.finished');
    expect(kinds).toEqual(expect.arrayContaining(['turn.created', 'assistant.content', 'turn.state_changed']));
    const result = await handle.result({ timeoutMs: 5_000 });
    expect(result.executionId).toBe(handle.executionId);
    expect(result.turns[0]!.response?.text).toBe('hello');

    const slowReply = arrival();
    fake.enqueue(slowReply.reply({ content: 'late', delayMs: 60_000 }));
    const slow = agent().submit('Slow', { servers: [example] });
    await slowReply.arrived;
    await slow.cancel();
    const cancelled = await slow.result({ timeoutMs: 5_000 });
    expect(cancelled.snapshot.outcome).toBe('cancelled');
    expect((await kit.store.getExecution(slow.executionId)).outcome).toBe('cancelled');
  });

  it('rejects other harness kinds and bad endpoints without I/O', async () => {
    // acp and the native CLIs are harnesses too; an unknown kind is still refused by name.
    expect(() => kit.agents([{ harness: 'robot', model: 'x' }])).toThrow(UnsupportedFeature);
    expect(() => kit.agents([{ harness: 'robot' }])).toThrow(/'robot'/);
    expect(() =>
      kit.agents([{ harness: 'openai', model: 'm', baseUrl: 'https://example.com/v1', auth: 'none' }]),
    ).toThrow(/loopback/);
    expect(() => kit.agents([{ harness: 'openai', model: 'm', baseUrl: 'https://example.com/v1' }])).toThrow(
      /apiKeyEnv/,
    );
    expect(() => kit.agents([{ harness: 'openai' }])).toThrow(/model/);
    await expect(() => agent().session({ servers: [example], tools: ['nope:x'] })).rejects.toThrow(
      /not one of this test's servers/,
    );
  });
});
