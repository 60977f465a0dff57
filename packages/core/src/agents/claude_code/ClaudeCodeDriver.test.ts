import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExampleServer, exampleServerBin } from '@sf-m3/example-servers';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { InProcessServer } from '../../servers/InProcessServer';
import { StdioServer } from '../../servers/StdioServer';
import { alive, ensureBuilt, inProcessExample, tracedPids } from '@sf-m3/test-utils/agents';
import { fakeClaudeAgent } from '@sf-m3/test-utils/agents';

const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });
const QUOTE = 'call:shipping_quote{"weight_kg":2,"zone":"local"}';

beforeAll(ensureBuilt, 120_000);

describe('claude_code harness (stream-json fixture)', () => {
  let kit: MCPTestKit;
  let dir: string;
  beforeEach(async () => {
    kit = new MCPTestKit();
    dir = await mkdtemp(join(tmpdir(), 'm3-claude-test-'));
  });
  afterEach(async () => {
    await kit.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs turns in one CLI process: tool calls on the wire correlated by tool_use id, cumulative usage and cost', async () => {
    const session = await fakeClaudeAgent(kit).session({ servers: [example] });
    const first = await session.send(`quote please ${QUOTE}`);
    const second = await session.send('and again call:shipping_quote{"weight_kg":1,"zone":"regional"}');
    const result = await session.close();

    expect([first.outcome, second.outcome, result.snapshot.outcome]).toEqual(['completed', 'completed', 'completed']);
    expect(first.response?.text).toBe('done: {"amount":9,"currency":"USD"}');
    const view = result.traceView;
    expect(view.runtime.kind).toBe('claude_code');
    if (view.runtime.kind === 'direct') throw new Error('an agent trace has an agent runtime');
    expect(view.runtime.agent.value).toEqual({ name: 'claude-code', version: '2.1.44' });
    expect(view.runtime.model.value).toBe('claude-sonnet-4-5-20250929');
    expect(view.runtime.sessionId.value).toMatch(/^[0-9a-f-]{36}$/);
    const calls = view.toolCalls.map((c) => [c.tool.value, c.server, c.status, c.correlation]);
    expect(calls).toEqual([
      ['shipping_quote', 'example', 'success', 'correlated'],
      ['shipping_quote', 'example', 'success', 'correlated'],
    ]);
    const reported = result.trace.events.filter(
      (e) => e.kind === 'tool.call_requested' && e.origin === 'harness_reported',
    );
    expect(reported.map((e) => e.payload.providerCallId)).toEqual(['toolu_fixture_1', 'toolu_fixture_2']);
    // One process across both turns.
    const started = result.trace.events.filter((e) => e.kind === 'process.started' && e.server === undefined);
    expect(started).toHaveLength(1);
    expect(view.summary.usage.value).toMatchObject({
      inputTokens: 42,
      outputTokens: 24,
      cost: 0.00081,
      currency: 'USD',
    });
    expect(alive(tracedPids(result.trace.events))).toEqual([]);
  });

  it('launches with built-in tools off, the allow-list from tools, dontAsk, the switches and a 0600 MCP config', async () => {
    const argsFile = join(dir, 'args.json');
    const agent = fakeClaudeAgent(kit, { env: { FAKE_CLAUDE_ARGS_FILE: argsFile } });
    const session = await agent.session({ servers: [example], tools: ['example:shipping_quote'] });
    const turn = await session.send(`call:get_order{"order_id":"o-1"} ${QUOTE}`);
    const { argv, env } = JSON.parse(readFileSync(argsFile, 'utf8')) as { argv: string[]; env: Record<string, string> };
    const configPath = argv[argv.indexOf('--mcp-config') + 1]!;
    const mode = statSync(configPath).mode & 0o777;
    const result = await session.close();

    expect(turn.outcome).toBe('completed');
    expect(argv.slice(0, 7)).toEqual([
      '-p',
      '--input-format',
      'stream-json',
      '--output-format',
      'stream-json',
      '--verbose',
      '--strict-mcp-config',
    ]);
    expect(argv[argv.indexOf('--tools') + 1]).toBe('');
    expect(argv[argv.indexOf('--allowedTools') + 1]).toBe('mcp__example__shipping_quote');
    expect(argv[argv.indexOf('--permission-mode') + 1]).toBe('dontAsk');
    expect(argv[argv.indexOf('--model') + 1]).toBe('sonnet');
    expect(mode).toBe(0o600);
    expect(env).toMatchObject({
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
    });
    expect(env.CLAUDE_CONFIG_DIR).toContain('m3-claude-code-');
    expect(env.HOME).not.toBe(process.env.HOME);
    // get_order was refused by the CLI's allow-list: reported, failed, never on the wire.
    const calls = result.traceView.toolCalls.map((c) => [c.tool.value, c.status, c.correlation]);
    expect(calls).toEqual([
      ['get_order', 'tool_error', 'reported_only'],
      ['shipping_quote', 'success', 'correlated'],
    ]);
    const wire = result.trace.events.filter((e) => e.kind === 'tool.call_requested' && e.origin === 'wire_observed');
    expect(wire.map((e) => (e.payload.params as { name: string }).name)).toEqual(['shipping_quote']);
  });

  it('with tools: [] allows no MCP tool: the call is refused and never reaches the server', async () => {
    const argsFile = join(dir, 'args.json');
    const agent = fakeClaudeAgent(kit, { env: { FAKE_CLAUDE_ARGS_FILE: argsFile } });
    const result = await agent.run(QUOTE, { servers: [example], tools: [] });
    const { argv } = JSON.parse(readFileSync(argsFile, 'utf8')) as { argv: string[] };

    expect(result.snapshot.outcome).toBe('completed');
    expect(argv).not.toContain('--allowedTools');
    expect(result.traceView.toolCalls.map((c) => [c.tool.value, c.status])).toEqual([['shipping_quote', 'tool_error']]);
    expect(result.trace.events.some((e) => e.kind === 'tool.call_requested' && e.origin === 'wire_observed')).toBe(
      false,
    );
  });

  it('records thinking as visible reasoning and redacted_thinking as encrypted, without signatures', async () => {
    const result = await fakeClaudeAgent(kit).run('[think] hello', { servers: [inProcessExample()] });

    expect(result.snapshot.outcome).toBe('completed');
    expect(result.traceView.reasoning.map((r) => r.content.state)).toEqual(['observed', 'encrypted']);
    const text = JSON.stringify(result.trace.events.filter((e) => e.kind !== 'raw.frame'));
    expect(text).toContain('Let me think.');
    expect(text).not.toContain('c2lnbmF0dXJl');
    expect(text).not.toContain('ZW5jcnlwdGVk');
  });

  it('a result without usage leaves usage unobserved', async () => {
    const agent = fakeClaudeAgent(kit, { env: { FAKE_CLAUDE_NO_USAGE: '1' } });
    const result = await agent.run('hello', { servers: [inProcessExample()] });

    expect(result.snapshot.outcome).toBe('completed');
    expect(result.traceView.summary.usage.state).not.toBe('observed');
    expect(result.trace.events.some((e) => e.kind === 'usage')).toBe(false);
  });

  it('an is_error result fails the turn with claude_code_turn_failed', async () => {
    const result = await fakeClaudeAgent(kit).run('[api-error]', { servers: [inProcessExample()] });

    expect(result.snapshot.outcome).toBe('failed');
    expect(result.error?.code).toBe('claude_code_turn_failed');
    expect(result.error?.message).toContain('API Error: 400');
    expect(result.traceView.messages.filter((m) => m.role === 'assistant')).toEqual([]);
  });

  it('attaches an HTTP server (in process, behind the loopback proxy) as a type: http entry', async () => {
    const shop = new InProcessServer({ name: 'shop', factory: createExampleServer });
    const result = await fakeClaudeAgent(kit).run(QUOTE, { servers: [shop] });

    expect(result.snapshot.outcome).toBe('completed');
    const calls = result.traceView.toolCalls.map((c) => [c.tool.value, c.server, c.status, c.correlation]);
    expect(calls).toEqual([['shipping_quote', 'shop', 'success', 'correlated']]);
  });

  it('gives the CLI the key from apiKeyEnv as ANTHROPIC_API_KEY and keeps it out of the trace and the store', async () => {
    const secret = 'sk-ant-m3-test-secret-value-0123456789';
    process.env.M3_CLAUDE_TEST_KEY = secret;
    try {
      const argsFile = join(dir, 'args.json');
      const agent = fakeClaudeAgent(kit, { apiKeyEnv: 'M3_CLAUDE_TEST_KEY', env: { FAKE_CLAUDE_ARGS_FILE: argsFile } });
      const result = await agent.run(`say ${secret}`, { servers: [example] });
      const { env } = JSON.parse(readFileSync(argsFile, 'utf8')) as { env: Record<string, string> };

      expect(env.ANTHROPIC_API_KEY).toBe(`sha256:${createHash('sha256').update(secret).digest('hex')}`);
      expect(env.M3_CLAUDE_TEST_KEY).toBeUndefined();
      expect(result.snapshot.outcome).toBe('completed');
      expect(JSON.stringify(result.trace.events)).not.toContain(secret);
      expect(JSON.stringify(await kit.store.getExecution(result.executionId))).not.toContain(secret);
    } finally {
      delete process.env.M3_CLAUDE_TEST_KEY;
    }
  });
});
