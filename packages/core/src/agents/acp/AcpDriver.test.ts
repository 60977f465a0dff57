import { readFileSync, readlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { createExampleServer, exampleServerBin } from '@sf-m3/example-servers';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { secretFromEnv } from '../../redaction/SecretRef';
import { InProcessServer } from '../../servers/InProcessServer';
import { StdioServer } from '../../servers/StdioServer';
import { agentManifests, agentPidOf, alive, ensureBuilt, livePidsOf, tracedPids } from '@sf-m3/test-utils/agents';

const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });
const SECRET = 'acp-secret-value-7f3e9c';

beforeAll(ensureBuilt, 120_000);

describe('the acp harness with the shipping fixture agent', () => {
  let kit: MCPTestKit;
  beforeEach(() => {
    kit = new MCPTestKit();
  });
  afterEach(async () => {
    await kit.close();
    delete process.env.M3_ACP_TEST_SECRET;
    delete process.env.M3_ACP_AMBIENT;
  });

  const shipping = (extra: Record<string, unknown> = {}) =>
    kit.agents([{ harness: 'acp', manifest: agentManifests.shipping, models: ['fixture'], ...extra }])[0]!;

  it('runs a two-turn session: answers, wire and reported tool calls correlated per turn, raw frames', async () => {
    const session = await shipping().session({ servers: [example], timeoutMs: 30_000 });
    const pids = livePidsOf(session);
    const first = await session.send('Quote 2 kg local');
    const second = await session.send('Quote 3 kg regional');
    pids.push(...livePidsOf(session));
    const result = await session.close();

    expect(result.snapshot.outcome).toBe('completed');
    expect([first.outcome, second.outcome]).toEqual(['completed', 'completed']);
    expect(first.response?.text).toBe('quoted local');
    expect(second.response?.text).toBe('quoted regional');
    expect(first.stopReason).toBe('end_turn');

    const view = result.traceView;
    expect(view.runtime).toMatchObject({ kind: 'acp', protocolVersion: { state: 'observed', value: '1' } });
    expect(view.runtime.kind === 'acp' && view.runtime.agent.value).toMatchObject({ name: 'sf-m3-shipping-fixture' });
    expect(view.summary.usage.state).toBe('unsupported');
    expect(view.summary.turnCount).toBe(2);
    expect(view.toolCalls).toHaveLength(2);
    const [call1, call2] = view.toolCalls;
    expect(call1).toMatchObject({ server: 'example', correlation: 'correlated', status: 'success', conflicts: [] });
    expect(call1!.turnId).toBe(first.turnId);
    expect(call1!.arguments.value).toEqual({ weight_kg: 2, zone: 'local' });
    expect(call1!.wire.state).toBe('observed');
    expect(call1!.reported.value).toMatchObject({
      providerCallId: 'call-1',
      server: 'example',
      tool: 'shipping_quote',
    });
    expect(call2!.turnId).toBe(second.turnId);
    expect(call2!.result.value).toMatchObject({ structuredContent: { value: { amount: 15.5, currency: 'USD' } } });
    expect(view.forTurn(first).toolCalls.map((c) => c.arguments.value)).toEqual([{ weight_kg: 2, zone: 'local' }]);
    expect(view.reasoning.length).toBeGreaterThanOrEqual(2);
    const acpFrames = view.rawMessages.filter((m) => m.source === 'acp');
    expect(new Set(acpFrames.map((m) => m.direction))).toEqual(new Set(['sdk_to_harness', 'harness_to_sdk']));
    expect(acpFrames.some((m) => String(m.preview.value).includes('"session/prompt"'))).toBe(true);

    const record = await kit.store.getExecution(result.executionId);
    expect(record.labels).toMatchObject({ harness: 'acp', model: 'fixture', trial: '1', server: 'example' });
    expect(record.labels.metadata).toMatchObject({ harness_config: 'acp:fixture', trial: '1' });
    expect(pids.length).toBeGreaterThanOrEqual(3);
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('gives the agent an allowlisted environment, a temp home and workspace, secrets as canaries', async () => {
    process.env.M3_ACP_TEST_SECRET = SECRET;
    process.env.M3_ACP_AMBIENT = 'must-not-leak';
    const agent = kit.agents([
      {
        harness: 'acp',
        manifest: {
          ...agentManifests.shipping,
          env: { PROVIDER_KEY: secretFromEnv('M3_ACP_TEST_SECRET'), PLAIN: 'x' },
        },
        models: ['fixture'],
        name: 'fixture-b',
      },
    ])[0]!;
    const session = await agent.session({ servers: [example], timeoutMs: 30_000 });
    const [agentPid] = livePidsOf(session);
    const env = Object.fromEntries(
      readFileSync(`/proc/${agentPid}/environ`, 'utf8')
        .split('\0')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    const cwd = readlinkSync(`/proc/${agentPid}/cwd`);
    const turn = await session.send(
      JSON.stringify({ tool: 'shipping_quote', arguments: { weight_kg: 2, zone: SECRET } }),
    );
    const result = await session.close();

    expect(Object.keys(env).sort()).toEqual(
      [
        'CI',
        'HOME',
        'LANG',
        'LC_ALL',
        'NO_COLOR',
        'PATH',
        'PLAIN',
        'PROVIDER_KEY',
        'TZ',
        'XDG_CACHE_HOME',
        'XDG_CONFIG_HOME',
        'XDG_DATA_HOME',
        'XDG_STATE_HOME',
      ].sort(),
    );
    expect(env.PROVIDER_KEY).toBe(SECRET);
    expect(env.HOME).toMatch(/m3-acp-[^/]+\/home$/);
    expect(env.PATH!.split(':')[0]).toBe(dirname(process.execPath));
    expect(cwd).toMatch(/m3-acp-[^/]+\/workspace$/);
    expect(JSON.stringify(result.trace.events)).not.toContain(SECRET);
    expect(turn.prompt).toContain(SECRET); // the caller's own prompt is not rewritten; the trace is
    const record = await kit.store.getExecution(result.executionId);
    expect(record.labels.metadata.harness_config).toBe('acp:fixture:fixture-b');
  });

  // One run per test: each run is an agent, a proxy and a server started, and gets a test's time.
  it("enforces tools: ['example:shipping_quote'] at the wire: the listed tool is called", async () => {
    const allowed = await shipping().run('Quote 2 kg local', { servers: [example], tools: ['example:shipping_quote'] });
    expect(allowed.snapshot.outcome).toBe('completed');
    expect(allowed.traceView.toolCalls.map((c) => c.status)).toEqual(['success']);
  });

  it.each([
    [
      "another tool under tools: ['example:shipping_quote']",
      JSON.stringify({ tool: 'normalize_customer', arguments: { name: 'ada' } }),
      ['example:shipping_quote'],
    ],
    ['shipping_quote under tools: []', 'Quote 2 kg local', []],
  ])('enforces tools at the wire: %s is denied', async (_label, prompt, tools) => {
    const result = await shipping().run(prompt, { servers: [example], tools });
    expect(result.turns[0]!.response?.text).toMatch(/^tool call denied: /);
    const [call] = result.traceView.toolCalls;
    expect(call).toMatchObject({ server: 'example', status: 'protocol_error', correlation: 'correlated' });
    expect(call!.policy).toMatchObject({ decision: 'denied' });
    expect(alive(tracedPids(result.trace.events))).toEqual([]);
  });

  it('reaches an in-process server through the loopback capture layer, chained across two servers', async () => {
    const inProcess = new InProcessServer({ name: 'shop', factory: createExampleServer });
    const session = await shipping().session({ servers: [inProcess, example], timeoutMs: 30_000 });
    const first = await session.send(
      JSON.stringify({ server: 'shop', tool: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } }),
    );
    const second = await session.send(
      JSON.stringify({ server: 'example', tool: 'shipping_quote', arguments: { weight_kg: 9, zone: 'regional' } }),
    );
    const result = await session.close();
    expect(result.snapshot.outcome).toBe('completed');
    const calls = result.traceView.toolCalls;
    expect(calls.map((c) => [c.server, c.correlation, c.status])).toEqual([
      ['shop', 'correlated', 'success'],
      ['example', 'correlated', 'success'],
    ]);
    expect(calls[0]!.turnId).toBe(first.turnId);
    expect(calls[1]!.result.value).toMatchObject({ structuredContent: { value: { amount: 36.5 } } });
    expect(second.response?.text).toContain('36.5');
    expect(alive(tracedPids(result.trace.events))).toEqual([]);
  });

  it('validates selections without I/O and fails launch problems clearly', async () => {
    expect(() => kit.agents([{ harness: 'acp', models: ['m'] }])).toThrow(/manifest: \{ command/);
    expect(() => kit.agents([{ harness: 'acp', manifest: { command: 'a', shell: true }, models: ['m'] }])).toThrow(
      /'shell' is unknown/,
    );
    expect(() => kit.agents([{ harness: 'acp', manifest: { command: 'a' } }])).toThrow(/models: \['<label>'/);
    expect(() => kit.agents([{ harness: 'acp', manifest: { command: 'a' }, models: ['m'], mode: 'x' }])).toThrow(
      /'mode' is unknown/,
    );
    expect(() =>
      kit.agents([{ harness: 'acp', manifest: { command: 'a', env: { 'BAD-NAME': 'x' } }, models: ['m'] }]),
    ).toThrow(/not a valid variable name/);

    const missing = await kit
      .agents([{ harness: 'acp', manifest: { command: 'sf-m3-no-such-agent' }, models: ['m'] }])[0]!
      .run('hi', { servers: [example] });
    expect(missing.snapshot.outcome).toBe('failed');
    expect(missing.error?.code).toBe('acp_executable_missing');

    const unset = await kit
      .agents([
        {
          harness: 'acp',
          manifest: { ...agentManifests.shipping, env: { K: secretFromEnv('M3_ACP_UNSET_VAR') } },
          models: ['m'],
        },
      ])[0]!
      .run('hi', { servers: [example] });
    expect(unset.error?.code).toBe('acp_environment_missing');
    expect(unset.error?.message).toContain('M3_ACP_UNSET_VAR');

    const stale = await shipping({ agentModeId: 'architect' }).run('hi', { servers: [example] });
    expect(stale.snapshot.outcome).toBe('failed');
    expect(stale.error).toMatchObject({ code: 'acp_stale_option' });
    expect(alive(tracedPids(stale.trace.events))).toEqual([]);
    expect(agentPidOf(stale.trace.events)).toBeDefined();
  });
});
