import { createExampleServer } from '@sf-m3/example-servers';
import { TransportStartupError } from '../../errors';
import { InProcessServer } from '../../servers/InProcessServer';
import { MCPTestKit } from '../../kit/MCPTestKit';
import {
  alive,
  ensureBuilt,
  example,
  fakeCodexAgent,
  harnessFrames,
  inProcessExample,
  livePidsOf,
  providerEvents,
  tracedPids,
} from '@sf-m3/test-utils/agents';

beforeAll(ensureBuilt, 120_000);

const QUOTE = 'call example:shipping_quote {"weight_kg":2,"zone":"local"}';
const NORMALIZE = 'call example:normalize_customer {"name":"Ada"}';

describe('the codex harness with the fake-codex protocol fixture', () => {
  let kit: MCPTestKit;
  beforeEach(() => {
    kit = new MCPTestKit();
  });
  afterEach(async () => {
    await kit.close();
    delete process.env.M3_CODEX_TEST_KEY;
  });

  it('runs a two-turn session in one process: answers, reasoning, correlated calls per turn, usage, runtime', async () => {
    const session = await fakeCodexAgent(kit).session({ servers: [example], timeoutMs: 30_000 });
    const pids = livePidsOf(session);
    const first = await session.send(`${QUOTE}\nreason: pricing the parcel\nsay: 9 USD`);
    const second = await session.send(NORMALIZE);
    pids.push(...livePidsOf(session));
    const result = await session.close();

    expect(result.snapshot.outcome).toBe('completed');
    expect([first.outcome, first.response?.text, first.stopReason]).toEqual(['completed', '9 USD', 'completed']);
    expect(second.response?.text).toBe('done\nnormalize_customer: {"customer_id":"ada"}');
    const view = result.traceView;
    expect(view.runtime).toMatchObject({ kind: 'codex', model: { state: 'observed', value: 'gpt-5.6-sol' } });
    expect(view.runtime.kind === 'codex' && view.runtime.agent.value).toMatchObject({
      name: 'codex',
      version: '0.171.0',
      modelProvider: 'm3',
      sandbox: 'readOnly',
    });
    const threadId = view.runtime.kind === 'codex' ? view.runtime.sessionId.value : null;
    expect(threadId).toMatch(/^[0-9a-f-]{36}$/);
    // One app-server process for both turns.
    expect(result.trace.events.filter((e) => e.kind === 'process.started' && e.server === undefined)).toHaveLength(1);

    expect(view.toolCalls).toHaveLength(2);
    const [quote, normalize] = view.toolCalls;
    expect(quote).toMatchObject({ server: 'example', correlation: 'correlated', status: 'success', conflicts: [] });
    expect(quote!.turnId).toBe(first.turnId);
    expect(normalize!.turnId).toBe(second.turnId);
    expect(quote!.wire.state).toBe('observed');
    // providerCallId is the mcpToolCall item id, which Codex sends as tools/call _meta.callId.
    const reported = quote!.reported.value as { providerCallId: string; tool: string };
    expect(reported.tool).toBe('shipping_quote');
    expect(reported.providerCallId).toMatch(/^exec-/);
    const wireCalls = view.rawMessages
      .filter((m) => m.source === 'mcp' && String(m.preview.value).includes('"tools/call"'))
      .map((m) => JSON.parse(String(m.preview.value)) as { params: { _meta?: { callId?: string } } });
    expect(wireCalls[0]?.params._meta?.callId).toBe(reported.providerCallId);
    expect(view.reasoning.map((r) => r.content)).toEqual([
      { state: 'observed', value: [{ type: 'text', text: 'pricing the parcel' }] },
    ]);
    expect(view.messages.filter((m) => m.role === 'assistant').map((m) => m.turnId)).toEqual([
      first.turnId,
      second.turnId,
    ]);
    // Cumulative tokens as reported; Codex reports no cost.
    expect(view.summary.usage).toMatchObject({
      state: 'observed',
      value: { inputTokens: 300, outputTokens: 60, totalTokens: 360, reasoningTokens: 20, cost: null },
    });
    const sent = harnessFrames(view, 'sdk_to_harness').map((f) => f.method);
    expect(sent.filter((m) => m !== undefined)).toEqual([
      'initialize',
      'initialized',
      'thread/start',
      'turn/start',
      'turn/start',
    ]);
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('gives Codex an HTTP server (url) behind the reverse proxy beside a stdio one', async () => {
    const shop = new InProcessServer({ name: 'shop', factory: createExampleServer });
    const result = await fakeCodexAgent(kit).run(
      `${QUOTE}\ncall shop:shipping_quote {"weight_kg":3,"zone":"regional"}`,
      {
        servers: [example, shop],
        tools: ['example:shipping_quote', 'shop:shipping_quote'],
        timeoutMs: 30_000,
      },
    );
    expect(result.snapshot.outcome).toBe('completed');
    expect(result.traceView.toolCalls.map((c) => [c.server, c.correlation, c.status])).toEqual([
      ['example', 'correlated', 'success'],
      ['shop', 'correlated', 'success'],
    ]);
  });

  it('says usage is not emitted when Codex sends no token usage', async () => {
    const result = await fakeCodexAgent(kit, { env: { FAKE_CODEX_NO_USAGE: '1' } }).run('say: hi', {
      servers: [inProcessExample()],
      timeoutMs: 30_000,
    });
    expect(result.turns[0]?.response?.text).toBe('hi');
    expect(result.traceView.summary.usage.state).toBe('not_emitted');
  });

  it('offers only the allowed tools natively (enabled_tools) and the proxy refuses a forced call', async () => {
    const result = await fakeCodexAgent(kit).run(
      `${QUOTE}\n${NORMALIZE}\nforce-call example:normalize_customer {"name":"Bob"}`,
      { servers: [example], tools: ['example:shipping_quote'], timeoutMs: 30_000 },
    );
    expect(result.snapshot.outcome).toBe('completed');
    const text = result.turns[0]?.response?.text ?? '';
    expect(text).toContain('normalize_customer: not offered');
    const calls = result.traceView.toolCalls;
    expect(calls.map((c) => [c.tool.value, c.policy?.decision])).toEqual([
      ['shipping_quote', 'allowed'],
      ['normalize_customer', 'denied'],
    ]);
    expect(calls[1]!.status).toBe('protocol_error');
  });

  it('tools: [] offers no MCP tool, and a forced call is denied at the wire', async () => {
    const result = await fakeCodexAgent(kit).run(
      `${QUOTE}\nforce-call example:shipping_quote {"weight_kg":1,"zone":"local"}`,
      {
        servers: [example],
        tools: [],
        timeoutMs: 30_000,
      },
    );
    expect(result.turns[0]?.response?.text).toContain('shipping_quote: not offered');
    expect(result.traceView.toolCalls.map((c) => c.policy?.decision)).toEqual(['denied']);
  });

  it('answers Codex MCP approvals by the run policy', async () => {
    const result = await fakeCodexAgent(kit).run(
      `ask-approval\n${QUOTE}\nforce-call example:normalize_customer {"name":"Ada"}`,
      { servers: [example], tools: ['example:shipping_quote'], timeoutMs: 30_000 },
    );
    expect(result.turns[0]?.response?.text).toContain('normalize_customer: declined');
    expect(providerEvents(result.trace.events, 'codex_approval')).toEqual([
      expect.objectContaining({ kind: 'mcp_tool_call', server: 'example', tool: 'shipping_quote', decision: 'accept' }),
      expect.objectContaining({ kind: 'mcp_tool_call', tool: 'normalize_customer', decision: 'decline' }),
    ]);
    expect(result.traceView.toolCalls.map((c) => c.tool.value)).toEqual(['shipping_quote']);
  });

  it('records hidden reasoning as provider_hidden, and a failed turn with Codex message', async () => {
    const session = await fakeCodexAgent(kit).session({ servers: [inProcessExample()], timeoutMs: 30_000 });
    const failed = await session.send('hidden-reasoning\nfail: the model endpoint refused the request');
    const after = await session.send('say: still here');
    const result = await session.close();
    expect(failed.outcome).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'codex_turn_failed' });
    expect(failed.error?.message).toContain('the model endpoint refused the request');
    expect(after.response?.text).toBe('still here');
    expect(result.traceView.reasoning.map((r) => r.content.state)).toEqual(['provider_hidden']);
  });

  it('passes the key to Codex in its own variable (env_key) and keeps it out of the trace', async () => {
    process.env.M3_CODEX_TEST_KEY = 'sk-codex-test-4b1d9e7a';
    const result = await fakeCodexAgent(kit, { apiKeyEnv: 'M3_CODEX_TEST_KEY', baseUrl: undefined }).run('check-key', {
      servers: [example],
      timeoutMs: 30_000,
    });
    expect(result.turns[0]?.response?.text).toBe('M3_CODEX_TEST_KEY is set');
    expect(JSON.stringify(result.trace.events)).not.toContain('sk-codex-test-4b1d9e7a');
  });

  it('fails with a clear error when there is neither a key nor a baseUrl', async () => {
    delete process.env.OPENAI_API_KEY_M3_ABSENT;
    const result = await fakeCodexAgent(kit, { apiKeyEnv: 'OPENAI_API_KEY_M3_ABSENT', baseUrl: undefined }).run(
      'say: x',
      { servers: [example], timeoutMs: 30_000 },
    );
    expect(result.snapshot.outcome).toBe('failed');
    expect(result.error?.message).toContain('export OPENAI_API_KEY_M3_ABSENT');
  });

  it('a missing executable fails the execution with TransportStartupError naming @openai/codex', async () => {
    const result = await fakeCodexAgent(kit, { executable: '/nonexistent/codex' }).run('say: x', {
      servers: [example],
      timeoutMs: 30_000,
    });
    expect(result.snapshot.outcome).toBe('failed');
    expect(result.error?.code).toBe(new TransportStartupError('x').code);
    expect(result.error?.message).toContain('npm install -g @openai/codex');
  });
});
