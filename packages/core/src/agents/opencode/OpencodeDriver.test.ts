import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createExampleServer, exampleServerBin as exampleBin } from '@sf-m3/example-servers';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { InProcessServer } from '../../servers/InProcessServer';
import { StdioServer } from '../../servers/StdioServer';
import { agentPidOf, alive, ensureBuilt, inProcessExample, livePidsOf, tracedPids } from '@sf-m3/test-utils/agents';

const FAKE_OPENCODE = join(__dirname, '__fixtures__', 'fake-opencode.js');
const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleBin] });
const KEY = 'sk-opencode-test-9d41c7';
const script = (value: Record<string, unknown>) => JSON.stringify(value);
const quote = (weight: number, zone: string) => ({
  tool: 'example_shipping_quote',
  arguments: { weight_kg: weight, zone },
});

beforeAll(ensureBuilt, 120_000);

describe('the opencode harness with the fake-opencode fixture', () => {
  let kit: MCPTestKit;
  beforeEach(() => {
    kit = new MCPTestKit();
  });
  afterEach(async () => {
    await kit.close();
    delete process.env.OPENCODE_API_KEY;
  });

  const agent = (extra: Record<string, unknown> = {}) =>
    kit.agents([{ harness: 'opencode', executable: FAKE_OPENCODE, models: ['opencode/big-pickle'], ...extra }])[0]!;

  it('runs a two-turn session: messages, reasoning, reported and wire calls per turn, cumulative usage', async () => {
    const session = await agent().session({ servers: [example], timeoutMs: 30_000 });
    const pids = livePidsOf(session);
    const first = await session.send(script({ calls: [quote(2, 'local')], reasoning: 'weigh it', reply: 'quoted' }));
    const second = await session.send(script({ calls: [quote(3, 'regional')], reply: 'quoted again' }));
    pids.push(...livePidsOf(session));
    const result = await session.close();

    expect(result.snapshot.outcome).toBe('completed');
    expect([first.outcome, second.outcome]).toEqual(['completed', 'completed']);
    expect(first.response?.text).toBe('quoted');
    expect(second.response?.text).toBe('quoted again');
    expect(first.stopReason).toBe('stop');
    const view = result.traceView;
    expect(view.runtime).toMatchObject({ kind: 'opencode' });
    if (view.runtime.kind !== 'opencode') throw new Error('not an opencode runtime');
    expect(view.runtime.agent.value).toEqual({ name: 'opencode', version: '1.18.33-fake' });
    expect(view.runtime.sessionId.value).toMatch(/^ses_/);
    expect(view.runtime.model.value).toBe('opencode/big-pickle');

    const calls = view.toolCalls;
    expect(calls.map((c) => [c.server, c.tool.value, c.turnId, c.wire.state, c.status])).toEqual([
      ['example', 'shipping_quote', first.turnId, 'observed', 'success'],
      ['example', 'shipping_quote', second.turnId, 'observed', 'success'],
    ]);
    expect(calls.map((c) => c.arguments.value)).toEqual([
      { weight_kg: 2, zone: 'local' },
      { weight_kg: 3, zone: 'regional' },
    ]);
    expect(calls.map((c) => [c.correlation, c.conflicts])).toEqual([
      ['correlated', []],
      ['correlated', []],
    ]);
    expect(calls[0]!.reported.value).toMatchObject({ providerCallId: 'call_1', server: 'example' });
    expect(calls[1]!.reported.value).toMatchObject({ providerCallId: 'call_2' });
    expect(view.reasoning.length).toBeGreaterThanOrEqual(1);
    // Two messages per turn at 10 in / 5 out / 15 total / 2 reasoning / 0.0015 each: the sum of four.
    expect(view.summary.usage).toMatchObject({
      state: 'observed',
      value: { inputTokens: 40, outputTokens: 20, totalTokens: 60, reasoningTokens: 8 },
    });
    expect(view.summary.usage.value?.cost).toBeCloseTo(0.006);
    const frames = view.rawMessages.filter((m) => m.source === 'harness');
    expect(new Set(frames.map((m) => m.direction))).toEqual(new Set(['sdk_to_harness', 'harness_to_sdk']));
    expect(frames.some((m) => String(m.preview.value).includes('"parts"'))).toBe(true);
    // The event stream was read: the running tool part arrived as an event.
    expect(frames.some((m) => /"status":"running"/.test(String(m.preview.value)))).toBe(true);
    expect(pids.length).toBeGreaterThanOrEqual(3);
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('writes a config with the key as {env:NAME}, an allowlisted env with the switches, basic auth', async () => {
    process.env.OPENCODE_API_KEY = KEY;
    process.env.M3_OPENCODE_AMBIENT = 'must-not-leak';
    const session = await agent({ baseUrl: 'http://127.0.0.1:9/v1' }).session({
      servers: [example],
      timeoutMs: 30_000,
    });
    const [pid] = livePidsOf(session);
    const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    const env = Object.fromEntries(environ.filter((l) => l.includes('=')).map((l) => l.split(/=(.*)/s).slice(0, 2)));
    const config = JSON.parse((await session.send(script({ echo: 'config' }))).response!.text!);
    const result = await session.close();
    delete process.env.M3_OPENCODE_AMBIENT;

    expect(env.OPENCODE_API_KEY).toBe(KEY);
    expect(env.M3_OPENCODE_AMBIENT).toBeUndefined();
    expect(env).toMatchObject({ OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_MODELS_FETCH: '1' });
    expect(env.npm_config_offline).toBe('true');
    expect(env.OPENCODE_CONFIG).toMatch(/m3-opencode-[^/]+\/.+\/opencode\.json$/);
    expect(env.HOME).toMatch(/m3-opencode-[^/]+\/home$/);
    expect(config.provider.opencode).toEqual({
      npm: '@ai-sdk/openai-compatible',
      name: 'opencode',
      options: { baseURL: 'http://127.0.0.1:9/v1', apiKey: '{env:OPENCODE_API_KEY}' },
      models: { 'big-pickle': { name: 'big-pickle', tool_call: true } },
    });
    expect(config).toMatchObject({ autoupdate: false, share: 'disabled', tools: { '*': false, 'example_*': true } });
    expect(config.mcp.example).toMatchObject({ type: 'local', enabled: true });
    const trace = JSON.stringify(result.trace.events);
    expect(trace).not.toContain(KEY);
    expect(trace).not.toContain(env.OPENCODE_SERVER_PASSWORD);
    expect(env.OPENCODE_SERVER_PASSWORD).toMatch(/^[0-9a-f]{48}$/);
  });

  // One run per test: each run is an agent, a proxy and a server started, and gets a test's time.
  it("calls a tool the run's tools list", async () => {
    const allowed = await agent().run(script({ calls: [quote(2, 'local')] }), {
      servers: [example],
      tools: ['example:shipping_quote'],
    });
    expect(allowed.traceView.toolCalls.map((c) => [c.tool.value, c.status])).toEqual([['shipping_quote', 'success']]);
  });

  it.each([
    [
      "another tool under tools: ['example:shipping_quote']",
      { tool: 'example_normalize_customer', arguments: { name: ' ada ' } },
      ['example:shipping_quote'],
    ],
    ['shipping_quote under tools: []', quote(2, 'local'), []],
  ])("keeps tools outside the run's tools from the model, never on the wire: %s", async (_label, call, tools) => {
    const result = await agent().run(script({ calls: [call] }), { servers: [example], tools });
    expect(result.snapshot.outcome).toBe('completed');
    const [reported] = result.traceView.toolCalls;
    expect(reported?.reported.state).toBe('observed');
    expect(reported?.wire.state).not.toBe('observed');
    expect(reported?.status).not.toBe('success');
    expect(result.trace.events.some((e) => e.kind === 'mcp.request' && e.payload.method === 'tools/call')).toBe(false);
    expect(alive(tracedPids(result.trace.events))).toEqual([]);
  });

  it('reaches an in-process server as a remote entry, its dotted name sanitized as OpenCode names tools', async () => {
    const shop = new InProcessServer({ name: 'shop.eu', factory: createExampleServer });
    const result = await agent().run(script({ calls: [{ ...quote(2, 'local'), tool: 'shop_eu_shipping_quote' }] }), {
      servers: [shop, example],
      tools: ['shop.eu:shipping_quote'],
    });
    expect(result.snapshot.outcome).toBe('completed');
    expect(result.traceView.toolCalls.map((c) => [c.server, c.tool.value, c.wire.state, c.status])).toEqual([
      ['shop.eu', 'shipping_quote', 'observed', 'success'],
    ]);
    expect(result.traceView.toolCalls[0]!.reported.value).toMatchObject({ server: 'shop.eu', tool: 'shipping_quote' });
  });

  it('reads the history on a timer when the event stream is not available', async () => {
    const handle = agent({ env: { FAKE_OPENCODE_NO_EVENTS: '1' } }).submit(
      script({ calls: [quote(2, 'local')], hang: true }),
      { servers: [example], timeoutMs: 30_000 },
    );
    for await (const event of handle.events()) {
      if (event.kind === 'tool.call_requested' && event.origin === 'harness_reported') break;
    }
    await handle.cancel();
    const result = await handle.result({ timeoutMs: 10_000 });
    expect(result.snapshot.outcome).toBe('cancelled');
    expect(result.traceView.toolCalls.map((c) => [c.wire.state, c.reported.state, c.correlation])).toEqual([
      ['observed', 'observed', 'correlated'],
    ]);
    const frames = result.traceView.rawMessages.filter((m) => m.source === 'harness');
    expect(frames.some((m) => /"status":"running"/.test(String(m.preview.value)))).toBe(false);
  });

  it('reports usage as not emitted when OpenCode gives no tokens or cost', async () => {
    const result = await agent({ env: { FAKE_OPENCODE_NO_USAGE: '1' } }).run(script({ calls: [quote(2, 'local')] }), {
      servers: [inProcessExample()],
    });
    expect(result.snapshot.outcome).toBe('completed');
    expect(result.traceView.summary.usage.state).toBe('not_emitted');
  });

  it('fails a turn OpenCode ends with info.error, and keeps the session for the next turn', async () => {
    const session = await agent().session({ servers: [inProcessExample()], timeoutMs: 30_000 });
    const failed = await session.send(script({ error: 'APIError' }));
    const next = await session.send('hello');
    const result = await session.close();
    expect(failed.outcome).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'opencode_turn_failed', details: { name: 'APIError' } });
    expect(next.outcome).toBe('completed');
    expect(next.response?.text).toBe('ok: hello');
    expect(result.snapshot.outcome).toBe('failed');
  });

  it('validates the model name without I/O and names the npm package when the executable is missing', async () => {
    expect(() => kit.agents([{ harness: 'opencode', models: ['big-pickle'] }])).toThrow(
      /model 'big-pickle' is not 'provider\/model'/,
    );
    const missing = await kit
      .agents([{ harness: 'opencode', executable: '/nonexistent/opencode', models: ['opencode/big-pickle'] }])[0]!
      .run('hi', { servers: [example] });
    expect(missing.snapshot.outcome).toBe('failed');
    expect(missing.error?.message).toMatch(/npm install -g opencode-ai/);
    expect(agentPidOf(missing.trace.events)).toBeUndefined();
    expect(alive(tracedPids(missing.trace.events))).toEqual([]);
  });
});
