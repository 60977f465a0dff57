// The claude_code native harness against the real Claude Code CLI (2.1.44, the plain-JavaScript
// cli.js of @anthropic-ai/claude-agent-sdk, which runs on Node 20), offline: a two-turn session with
// the example server behind the kit's capture proxy and a loopback fake model that scripts, by
// content, one shipping_quote call in turn 1, and in turn 2 a get_order call the run's `tools`
// denies beside a second shipping_quote call. Uses the built dist.
'use strict';

const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { homedir } = require('node:os');
const { InProcessServer, StdioServer } = require('../../index.js');
const { FakeModelServer, offeredTool } = require('../../testing.js');
const { createExampleServer, exampleServerBin } = require('@sf-m3/example-servers');
const {
  addDescendants,
  alivePids,
  processesUntil,
  toolResultAmounts,
  untilModelRequested,
  sendWatched,
  useKitAndFakeModel,
} = require('./realAgentTestkit');
const realAgents = require('./realAgents');
const { KEY_ENV, expectFaithfulReplay, recordThenReplay } = require('./realCassettes');

/** The CLI: the native-matrix installer's when it exports one, else M3_CLAUDE_CODE_EXECUTABLE, else the cache path. */
function claudeExecutable() {
  const installed =
    typeof realAgents.nativeExecutable === 'function' ? realAgents.nativeExecutable('claude_code') : null;
  if (installed) return installed;
  if (process.env.M3_CLAUDE_CODE_EXECUTABLE) return process.env.M3_CLAUDE_CODE_EXECUTABLE;
  return join(
    homedir(),
    '.cache/sf-m3/native-agents/_anthropic-ai_claude-agent-sdk_0.2.44/node_modules/@anthropic-ai/claude-agent-sdk/cli.js',
  );
}

const executable = claudeExecutable();
const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });

function scriptedModel() {
  return new FakeModelServer({ maxRequests: 20, maxRounds: 3 })
    .when(
      { tool: 'shipping_quote', afterToolResult: false, lastUserText: 'shipping quote' },
      (request) => ({
        toolCalls: [{ name: offeredTool(request, 'shipping_quote'), arguments: { weight_kg: 2, zone: 'local' } }],
      }),
      { times: 1 },
    )
    .when(
      { tool: 'shipping_quote', afterToolResult: false, lastUserText: 'order ord-1' },
      (request) => ({
        toolCalls: [
          { name: offeredTool(request, 'get_order'), arguments: { order_id: 'ord-1' } },
          { name: offeredTool(request, 'shipping_quote'), arguments: { weight_kg: 5, zone: 'international' } },
        ],
      }),
      { times: 1 },
    )
    .when({ tool: 'shipping_quote', afterToolResult: true }, (request) => ({
      content: `Quoted: ${toolResultAmounts(request).join(', ') || 'nothing'} USD.`,
    }));
}

describe('claude_code (real CLI) over the native harness', () => {
  beforeAll(() => {
    if (!existsSync(executable)) throw new Error(`Claude Code not found at ${executable}: run npm run e2e:real-agents`);
  });
  const env = useKitAndFakeModel(scriptedModel);

  it('runs two turns with a tool call on the wire in each, refuses the denied tool, reports usage', async () => {
    const { fake, kit } = env;
    const started = Date.now();
    const [agent] = kit.agents([{ harness: 'claude_code', executable, baseUrl: fake.origin, models: ['sonnet'] }]);
    const session = await agent.session({
      servers: [example],
      tools: ['example:shipping_quote'],
      timeoutMs: 150_000,
    });
    const {
      turns: [first, second],
      result,
      processes,
    } = await sendWatched(session, [
      'Get a shipping quote for a 2 kg parcel to the local zone.',
      'Look up order ord-1, then quote 5 kg to the international zone.',
    ]);

    expect([first.outcome, second.outcome, result.snapshot.outcome]).toEqual(['completed', 'completed', 'completed']);
    expect(first.response?.text).toBe('Quoted: 9 USD.');
    expect(second.response?.text).toMatch(/^Quoted: [\d.]+ USD\.$/);

    const view = result.traceView;
    expect(view.runtime.kind).toBe('claude_code');
    expect(view.runtime.agent.value).toEqual({ name: 'claude-code', version: '2.1.44' });
    expect(view.runtime.model.value).toBe('claude-sonnet-4-5-20250929'); // the CLI resolves the alias
    expect(view.runtime.sessionId.value).toMatch(/^[0-9a-f-]{36}$/);
    const quotes = view.toolCalls.filter((c) => c.tool.value === 'shipping_quote');
    expect(quotes.map((c) => [c.server, c.status, c.correlation])).toEqual([
      ['example', 'success', 'correlated'],
      ['example', 'success', 'correlated'],
    ]);
    // The denied get_order was refused by the CLI (dontAsk, not in --allowedTools): never on the wire.
    const wireCalls = result.trace.events.filter(
      (e) => e.kind === 'tool.call_requested' && e.origin === 'wire_observed',
    );
    expect(wireCalls.map((e) => e.payload.params.name)).toEqual(['shipping_quote', 'shipping_quote']);
    const orders = view.toolCalls.filter((c) => c.tool.value === 'get_order');
    expect(orders.map((c) => [c.server, c.status, c.correlation])).toEqual([
      ['example', 'tool_error', 'reported_only'],
    ]);

    expect(view.summary.usage.value.inputTokens).toBeGreaterThan(0);
    expect(view.summary.usage.value.cost).toBeGreaterThan(0);
    expect(fake.limitViolations).toEqual([]);
    expect(processes.pids.size).toBeGreaterThanOrEqual(3);
    expect(processes.alive()).toEqual([]);
    console.log(`claude_code real-CLI two-turn session: ${Date.now() - started} ms`);
  });

  it('cancels a turn in flight with the interrupt control request and leaves no process', async () => {
    const { fake, kit } = env;
    fake.when({ lastUserText: 'take your time' }, { content: 'too late', delayMs: 30_000 });
    const [agent] = kit.agents([{ harness: 'claude_code', executable, baseUrl: fake.origin, models: ['sonnet'] }]);
    const handle = agent.submit('Please take your time.', { servers: [example], timeoutMs: 60_000 });
    // The model request is out once the CLI has said which session it runs.
    const pids = await processesUntil(handle, (event) => event.kind === 'session.created');
    await untilModelRequested(fake, 50);
    addDescendants(pids);
    await handle.cancel();
    const result = await handle.result({ timeoutMs: 20_000 });

    expect(result.snapshot.outcome).toBe('cancelled');
    expect(result.turns[0].outcome).toBe('cancelled');
    const frames = result.traceView.rawMessages.filter((m) => m.source === 'harness');
    const interrupt = frames.find(
      (m) => m.direction === 'sdk_to_harness' && String(m.preview.value).includes('"interrupt"'),
    );
    expect(interrupt).toBeDefined();
    // The CLI answered the interrupt and ended the turn itself.
    expect(
      frames.some((m) => m.direction === 'harness_to_sdk' && String(m.preview.value).includes('control_response')),
    ).toBe(true);
    expect(alivePids(pids)).toEqual([]);
  });

  it('reaches an HTTP server (in process, behind the loopback reverse proxy) through a type: http entry', async () => {
    const { fake, kit } = env;
    const shop = new InProcessServer({ name: 'shop', factory: createExampleServer });
    const [agent] = kit.agents([{ harness: 'claude_code', executable, baseUrl: fake.origin, models: ['sonnet'] }]);
    const result = await agent.run('Get a shipping quote for a 2 kg parcel to the local zone.', {
      servers: [shop],
      timeoutMs: 60_000,
    });

    expect(result.snapshot.outcome).toBe('completed');
    expect(result.turns[0].response?.text).toBe('Quoted: 9 USD.');
    const calls = result.traceView.toolCalls.map((c) => [c.tool.value, c.server, c.status, c.correlation]);
    expect(calls).toEqual([['shipping_quote', 'shop', 'success', 'correlated']]);
  });

  it('records two trials through the cassette proxy, then replays them with the model stopped and no key', async () => {
    const run = await recordThenReplay({
      servers: [example],
      selection: (origin) => ({
        harness: 'claude_code',
        executable,
        baseUrl: origin,
        apiKeyEnv: KEY_ENV,
        models: ['sonnet'],
      }),
    });
    expectFaithfulReplay(run);
    console.log(
      `claude_code cassette: ${run.recorded.report.recorded} exchanges recorded, ${run.replayed.report.replayed} replayed`,
    );
  }, 600_000);
});
