import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExampleServer, exampleServerBin } from '@sf-m3/example-servers';
import { MCPTestKit } from '../../kit/MCPTestKit';
import type { TraceEvent } from '../../trace/Event';
import { InProcessServer } from '../../servers/InProcessServer';
import { StdioServer } from '../../servers/StdioServer';
import { PI_TOOL_CALL_META_KEY } from './extension/piBridgeConfig';
import { alive, ensureBuilt, FAKE_PI, livePidsOf, tracedPids } from './piHarness.testkit';
import { inProcessExample } from '@sf-m3/test-utils/agents';

const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });
const quote = (kg: number, zone: string) =>
  `call mcp_example_shipping_quote ${JSON.stringify({ weight_kg: kg, zone })}`;

beforeAll(ensureBuilt, 120_000);

/** The `tools/call` requests the capture proxy saw. */
const wireCalls = (events: readonly TraceEvent[]) =>
  events.filter((e) => e.kind === 'tool.call_requested' && e.origin === 'wire_observed');

describe('the pi harness with the protocol fixture', () => {
  let kit: MCPTestKit;
  beforeEach(() => {
    kit = new MCPTestKit();
  });
  afterEach(async () => {
    await kit.close();
  });

  const pi = (extra: Record<string, unknown> = {}) =>
    kit.agents([{ harness: 'pi', executable: FAKE_PI, models: ['fake/model'], ...extra }])[0]!;

  it('runs a two-turn session: answers, wire and reported calls correlated per turn, runtime, usage, frames', async () => {
    const session = await pi().session({ servers: [example], timeoutMs: 30_000 });
    const pids = livePidsOf(session);
    const first = await session.send(`${quote(2, 'local')}\nthink`);
    const second = await session.send(quote(3, 'regional'));
    pids.push(...livePidsOf(session));
    const result = await session.close();

    expect(result.snapshot.outcome).toBe('completed');
    expect([first.outcome, second.outcome]).toEqual(['completed', 'completed']);
    expect([first.response?.text, second.response?.text]).toEqual([
      'done after 1 tool call(s)',
      'done after 1 tool call(s)',
    ]);
    expect(first.stopReason).toBe('stop');
    const view = result.traceView;
    expect(view.runtime).toMatchObject({
      kind: 'pi',
      sessionId: { state: 'observed', value: expect.stringMatching(/^fake-session-\d+$/) },
      model: { state: 'observed', value: 'fake/model' },
      agent: { state: 'observed', value: { name: 'pi', version: '0.73.1-fake' } },
    });
    const [call1, call2] = view.toolCalls;
    expect(view.toolCalls).toHaveLength(2);
    expect(call1).toMatchObject({ server: 'example', correlation: 'correlated', status: 'success', conflicts: [] });
    expect(call1!.turnId).toBe(first.turnId);
    expect(call2!.turnId).toBe(second.turnId);
    expect(call1!.arguments.value).toEqual({ weight_kg: 2, zone: 'local' });
    expect(call1!.reported.value).toMatchObject({
      providerCallId: 'call_1_1',
      server: 'example',
      tool: 'shipping_quote',
    });
    // The extension's bridge sent Pi's toolCallId in tools/call _meta, where the wire evidence has it.
    expect(
      wireCalls(result.trace.events).map((e) => (e.payload.params as { _meta?: Record<string, unknown> })._meta),
    ).toEqual([{ [PI_TOOL_CALL_META_KEY]: 'call_1_1' }, { [PI_TOOL_CALL_META_KEY]: 'call_3_1' }]);
    expect(call2!.result.value).toMatchObject({ structuredContent: { value: { amount: expect.any(Number) } } });
    expect(view.reasoning.map((r) => r.content.value)).toEqual([[{ type: 'text', text: 'the user wants an answer' }]]);
    expect(view.messages.filter((m) => m.role === 'assistant').map((m) => m.text)).toEqual([
      'done after 1 tool call(s)',
      'done after 1 tool call(s)',
    ]);
    // Four assistant messages (two tool calls, two answers), each 10 input + 2 cached, 5 output, $0.001.
    expect(view.summary.usage).toMatchObject({
      state: 'observed',
      value: { inputTokens: 48, outputTokens: 20, totalTokens: 68, cost: 0.004, currency: 'USD' },
    });
    const sent = view.rawMessages.filter((m) => m.source === 'harness' && m.direction === 'sdk_to_harness');
    expect(sent.map((m) => JSON.parse(String(m.preview.value)).type)).toEqual(['get_state', 'prompt', 'prompt']);
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('bridges an in-process server over the loopback HTTP proxy beside a stdio one', async () => {
    const shop = new InProcessServer({ name: 'shop', factory: createExampleServer });
    const session = await pi().session({ servers: [example, shop], timeoutMs: 30_000 });
    const turn = await session.send(
      'call mcp_shop_shipping_quote {"weight_kg":1,"zone":"local"}\n' + quote(2, 'international'),
    );
    const result = await session.close();
    expect(turn.outcome).toBe('completed');
    expect(result.traceView.toolCalls.map((c) => [c.server, c.tool.value, c.correlation, c.status])).toEqual([
      ['shop', 'shipping_quote', 'correlated', 'success'],
      ['example', 'shipping_quote', 'correlated', 'success'],
    ]);
  });

  it('registers only the tools the run allows: another tool is not found and never reaches the wire', async () => {
    const session = await pi().session({ servers: [example], tools: ['example:shipping_quote'], timeoutMs: 30_000 });
    const turn = await session.send(`${quote(2, 'local')}\ncall mcp_example_create_order {"customer_id":"c1"}`);
    const result = await session.close();

    expect(turn.outcome).toBe('completed');
    const calls = result.traceView.toolCalls.map((c) => [c.tool.value, c.correlation, c.status]);
    expect(calls).toEqual([
      ['shipping_quote', 'correlated', 'success'],
      ['create_order', 'reported_only', 'tool_error'],
    ]);
    expect(wireCalls(result.trace.events).map((e) => (e.payload.params as { name: string }).name)).toEqual([
      'shipping_quote',
    ]);
  });

  it('tools: [] registers no tool at all', async () => {
    const session = await pi().session({ servers: [example], tools: [], timeoutMs: 30_000 });
    await session.send(quote(2, 'local'));
    const result = await session.close();
    expect(result.traceView.toolCalls.map((c) => [c.correlation, c.status])).toEqual([['reported_only', 'tool_error']]);
    expect(wireCalls(result.trace.events)).toEqual([]);
    // The extension registered nothing: its status names no tool, and the proxy's tools/list still ran.
    expect(result.trace.events.some((e) => e.kind === 'mcp.request' && e.payload.method === 'tools/list')).toBe(true);
  });

  it('a denied call that reaches the wire is refused by the capture proxy (policy.decision denied)', async () => {
    const session = await pi({ env: { FAKE_PI_ALL_TOOLS: '1' } }).session({
      servers: [example],
      tools: ['example:shipping_quote'],
      timeoutMs: 30_000,
    });
    await session.send('call mcp_example_create_order {"customer_id":"c1","items":[]}');
    const result = await session.close();
    const [call] = result.traceView.toolCalls;
    expect(call).toMatchObject({ tool: { value: 'create_order' }, correlation: 'correlated' });
    expect(call!.policy).toMatchObject({ decision: 'denied' });
    expect(call!.reported.value).toMatchObject({ providerCallId: 'call_1_1' });
  });

  it('records no usage when Pi reports none', async () => {
    const session = await pi({ env: { FAKE_PI_NO_USAGE: '1' } }).session({
      servers: [inProcessExample()],
      timeoutMs: 30_000,
    });
    await session.send('hello');
    const result = await session.close();
    expect(result.traceView.summary.usage.state).toBe('not_emitted');
    expect(result.trace.events.some((e) => e.kind === 'usage')).toBe(false);
  });

  it('launches Pi in rpc mode with its own discovery, built-in tools and network off, and no key on disk', async () => {
    const file = join(tmpdir(), `m3-fake-pi-argv-${process.pid}.json`);
    process.env.M3_PI_TEST_KEY = 'pi-secret-key-4d1c';
    try {
      const session = await pi({
        apiKeyEnv: 'M3_PI_TEST_KEY',
        baseUrl: 'http://127.0.0.1:9/v1',
        env: { FAKE_PI_ARGV_FILE: file },
      }).session({ servers: [example], timeoutMs: 30_000 });
      await session.send('hello');
      const result = await session.close();
      const seen = JSON.parse(readFileSync(file, 'utf8')) as {
        argv: string[];
        env: string[];
        keyValue: string;
        modelsJson: string;
      };
      expect(seen.argv.slice(0, 2)).toEqual(['--mode', 'rpc']);
      for (const flag of ['--no-session', '--no-extensions', '--no-builtin-tools', '--no-context-files', '--offline']) {
        expect(seen.argv).toContain(flag);
      }
      expect(seen.argv.slice(-4)).toEqual(['--provider', 'fake', '--model', 'model']);
      expect(seen.env).toEqual(expect.arrayContaining(['PI_OFFLINE', 'PI_TELEMETRY', 'PI_SKIP_VERSION_CHECK']));
      expect(seen.env).not.toContain('M3_PI_TEST_KEY');
      expect(seen.keyValue).toBe('pi-secret-key-4d1c');
      expect(JSON.parse(seen.modelsJson)).toEqual({
        providers: {
          fake: {
            baseUrl: 'http://127.0.0.1:9/v1',
            api: 'openai-completions',
            apiKey: 'M3_PI_API_KEY',
            models: [{ id: 'model' }],
          },
        },
      });
      expect(JSON.stringify(result.trace.events)).not.toContain('pi-secret-key-4d1c');
    } finally {
      delete process.env.M3_PI_TEST_KEY;
    }
  });

  it('a missing executable fails the execution naming the npm package; a bad model is refused up front', async () => {
    const missing = await pi({ executable: '/nonexistent/pi' }).run('hello', { servers: [example], timeoutMs: 30_000 });
    expect(missing.snapshot.outcome).toBe('failed');
    expect(missing.error?.message).toContain('npm install -g @mariozechner/pi-coding-agent');
    expect(() => kit.agents([{ harness: 'pi', models: ['no-provider'] }])).toThrow(/not 'provider\/model'/);
  });
});
