// Both protocol eras through the capture layer (contract §23, §14): a real SDK v2 client, pinned to
// 2026-07-28 or speaking only the 2025 handshake, uses a descriptor as an agent would; the real SDK
// v2 fixture server answers over stdio (capture proxy script), Streamable HTTP (reverse proxy) and
// in process (hosted endpoint behind the reverse proxy).
import type { Client as V2Client } from '@modelcontextprotocol/client';
import { startV2Http, v2InProcess, v2Stdio, type V2HttpEndpoint } from '@sf-m3/test-utils/client';
import type { ServerDefinition } from '../../servers/ServerDefinition';
import type { TraceEvent } from '../../trace/Event';
import { connectAsV2Agent, setupGroup, type AgentEra } from './wire.testkit';

let http: V2HttpEndpoint;
beforeAll(async () => {
  http = await startV2Http('both');
});
afterAll(() => http.close());

/** What `confirm` answers a 2025 agent: the HTTP fixture's legacy leg is stateless (no session to ask in). */
const ASKED = 'deploy: done';
const STATELESS = 'Client does not support form elicitation.';
const rows: Array<[string, () => ServerDefinition, string]> = [
  ['stdio', () => v2Stdio('both'), ASKED],
  ['http', () => http.server(), STATELESS],
  ['in_process', () => v2InProcess(), ASKED],
];
const ERAS: AgentEra[] = ['modern', 'legacy'];
const REVISION = { modern: '2026-07-28', legacy: '2025-11-25' };

const outcome = (p: Promise<unknown>): Promise<string> =>
  p.then(
    (r) => ((r as { content: Array<{ text?: string }> }).content[0]?.text ?? 'no text') as string,
    (e: Error) => e.message,
  );

/** echo, confirm (an input round on 2026-07-28, an elicitation on 2025) and add, under `tools`. */
async function session(make: () => ServerDefinition, era: AgentEra, tools?: (server: string) => string[]) {
  const server = make();
  const { group, finish, recorder } = setupGroup([server], tools?.(server.name));
  const [descriptor] = await group.start(new AbortController().signal);
  let client: V2Client | undefined;
  const outcomes: string[] = [];
  try {
    client = await connectAsV2Agent(descriptor!, era);
    await client.listTools();
    outcomes.push(await outcome(client.callTool({ name: 'echo', arguments: { text: 'hi' } })));
    outcomes.push(await outcome(client.callTool({ name: 'confirm', arguments: { action: 'deploy' } })));
    outcomes.push(await outcome(client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })));
  } finally {
    await client?.close();
    await group.sync();
    await group.close();
  }
  const trace = finish();
  /** The `requestState` of an event's raw frame, as the bytes the frame held. */
  const requestStateBytes = (e: TraceEvent): Buffer => {
    const blob = recorder.evidence.find((b) => b.reference.evidenceId === e.rawEvidence?.evidenceId);
    const match = /"requestState":("(?:[^"\\]|\\.)*")/.exec(blob?.bytes.toString('utf8') ?? '');
    return Buffer.from(match?.[1] ?? '', 'utf8');
  };
  return { name: server.name, outcomes, trace, view: trace.view(), requestStateBytes };
}

const wireCalls = (events: readonly TraceEvent[]) =>
  events.filter((e) => e.origin === 'wire_observed' && e.kind === 'tool.call_requested');

describe.each(rows)('the capture layer over a %s SDK v2 server', (_kind, make, legacyConfirm) => {
  const confirmed = (era: AgentEra) => (era === 'modern' ? ASKED : legacyConfirm);

  test.each(ERAS)('%s era: forwards, records the era and the input rounds', async (era) => {
    const { name, outcomes, trace, view, requestStateBytes } = await session(make, era);
    expect(outcomes).toEqual([`${era}: hi`, confirmed(era), '3']);
    // The revision the agent negotiated with the server is its initialization entry and runtime fact.
    const [init] = view.timeline.filter((e) => e.kind === 'initialization');
    expect(init).toMatchObject({
      server: name,
      era: { state: 'observed', value: era },
      protocolVersion: { state: 'observed', value: REVISION[era] },
    });
    expect(view.runtime).toMatchObject({
      mcpServers: { state: 'observed', value: [{ server: name, era, protocolVersion: REVISION[era] }] },
    });
    const calls = wireCalls(trace.events).map((e) => e.payload.params as Record<string, unknown>);
    if (era === 'modern') {
      // No handshake; the retry carries the answers and the server's requestState byte for byte.
      expect(trace.events.some((e) => e.payload.method === 'initialize')).toBe(false);
      expect(trace.events.some((e) => e.payload.method === 'server/discover')).toBe(true);
      const retry = calls.find((p) => p.requestState !== undefined)!;
      expect(retry).toMatchObject({
        name: 'confirm',
        requestState: 'state:deploy:\u00e9',
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      });
      // As the wire carried them: the server's input_required result and the agent's retry hold
      // the same requestState bytes (the raw evidence of both frames).
      const asked = trace.events.find(
        (e) =>
          e.origin === 'wire_observed' &&
          e.kind === 'tool.result_received' &&
          (e.payload.result as { resultType?: string }).resultType === 'input_required',
      )!;
      const retryEvent = wireCalls(trace.events).find(
        (e) => (e.payload.params as { requestState?: string }).requestState,
      )!;
      expect(requestStateBytes(retryEvent).toString('hex')).toBe(requestStateBytes(asked).toString('hex'));
      expect(JSON.parse(requestStateBytes(asked).toString('utf8'))).toBe('state:deploy:\u00e9');
      const rounds = view.interactions.filter((i) => i.inputKey !== undefined);
      expect(rounds.map((i) => [i.interactionKind, i.round, i.inputKey])).toEqual([['elicitation', 1, 'confirm']]);
      expect(view.toolCalls.map((c) => [c.tool.value, c.status, c.inputRounds])).toEqual([
        ['echo', 'success', undefined],
        ['confirm', 'success', 1],
        ['add', 'success', undefined],
      ]);
    } else {
      expect(calls.some((p) => p.requestState !== undefined)).toBe(false);
      expect(view.toolCalls.map((c) => [c.tool.value, c.status])).toEqual([
        ['echo', 'success'],
        ['confirm', legacyConfirm === ASKED ? 'success' : 'tool_error'],
        ['add', 'success'],
      ]);
    }
  });

  test.each(ERAS)('%s era: a tool the policy denies is answered by the proxy', async (era) => {
    const { name, outcomes, view } = await session(make, era, (server) => [`${server}:echo`, `${server}:confirm`]);
    expect(outcomes.slice(0, 2)).toEqual([`${era}: hi`, confirmed(era)]);
    expect(outcomes[2]).toContain(
      `MCP tool call '${name}:add' was denied by this test's tool policy (not in the allowlist)`,
    );
    expect(view.toolCalls.at(-1)).toMatchObject({
      tool: { value: 'add' },
      status: 'protocol_error',
      policy: { decision: 'denied', reason: 'not in the allowlist' },
      error: { state: 'observed', value: { code: -32001 } },
    });
  });
});

describe('a modern-only SDK v2 server', () => {
  let modernOnly: V2HttpEndpoint;
  beforeAll(async () => {
    modernOnly = await startV2Http('modern-only');
  });
  afterAll(() => modernOnly.close());

  const servedModernOnly: Array<[string, () => ServerDefinition]> = [
    ['stdio', () => v2Stdio('modern-only')],
    ['http', () => modernOnly.server()],
  ];

  test.each(servedModernOnly)(
    'over %s: an agent that speaks only 2025 fails with a diagnostic that says so',
    async (_kind, make) => {
      const server = make();
      const { group, finish } = setupGroup([server]);
      const [descriptor] = await group.start(new AbortController().signal);
      let failure: unknown;
      try {
        await connectAsV2Agent(descriptor!, 'legacy').then(
          (client) => client.close(),
          (error: unknown) => {
            failure = error;
          },
        );
      } finally {
        await group.sync();
        await group.close();
      }
      expect(String(failure)).toMatch(/protocol version/i);
      const trace = finish();
      const mismatch = trace.events.filter((e) => e.kind === 'diagnostic' && e.payload.code === 'era_mismatch');
      expect(mismatch).toHaveLength(1);
      expect(mismatch[0]).toMatchObject({ server: server.name, origin: 'wire_observed' });
      expect(mismatch[0]!.payload).toMatchObject({
        requestedProtocolVersion: '2025-11-25',
        offeredProtocolVersions: ['2026-07-28'],
      });
      expect(mismatch[0]!.payload.message).toBe(
        `the agent's MCP client speaks only the 2025 protocol (its initialize asked for 2025-11-25), but MCP server ` +
          `${server.name} serves only 2026-07-28 (the stateless 2026-07-28 era, no initialize handshake) and refused ` +
          `it with -32022: use an agent whose MCP client speaks 2026-07-28, or serve the 2025 era too (SDK v2: ` +
          `legacy 'serve' over stdio, 'stateless' over HTTP, instead of 'reject')`,
      );
      expect(trace.view().timeline.some((e) => e.kind === 'initialization')).toBe(false);
    },
  );

  test.each(servedModernOnly)('over %s: a 2026-07-28 agent gets through', async (_kind, make) => {
    const { outcomes, view } = await session(make, 'modern');
    expect(outcomes).toEqual(['modern: hi', ASKED, '3']);
    expect(view.runtime).toMatchObject({ mcpServers: { value: [{ era: 'modern', protocolVersion: '2026-07-28' }] } });
  });
});

describe('subscriptions/listen through the capture layer (2026-07-28)', () => {
  // Over HTTP the fixture publishes `grow` on its handler's listen bus, so the change comes through
  // the reverse proxy. In process the kit's own handler builds the instances, and the fixture's
  // `grow` (which notifies from its instance) publishes nothing to that bus: there the test shows
  // the stream opened and acknowledged.
  const listenRows: Array<[string, () => ServerDefinition, boolean]> = [
    ['stdio', () => v2Stdio('both'), true],
    ['http', () => http.server(), true],
    ['in_process', () => v2InProcess(), false],
  ];
  test.each(listenRows)('over %s: the listen stream is relayed and recorded', async (_kind, make, publishes) => {
    const server = make();
    const { group, finish } = setupGroup([server]);
    const [descriptor] = await group.start(new AbortController().signal);
    let client: V2Client | undefined;
    try {
      client = await connectAsV2Agent(descriptor!, 'modern');
      const changed = new Promise<void>((resolve) => {
        client!.setNotificationHandler('notifications/tools/list_changed', () => resolve());
      });
      // Resolves at the server's acknowledgement, which arrives on the listen stream itself.
      const subscription = await client.listen({ toolsListChanged: true });
      if (publishes) {
        await client.callTool({ name: 'grow', arguments: {} });
        await changed;
      }
      await subscription.close();
    } finally {
      await client?.close();
      await group.sync();
      await group.close();
    }
    const wire = finish().events.filter((e) => e.origin === 'wire_observed');
    const notified = (method: string) =>
      wire.some(
        (e) => e.kind === 'mcp.notification' && e.direction === 'server_to_client' && e.payload.method === method,
      );
    expect(wire.some((e) => e.kind === 'mcp.request' && e.payload.method === 'subscriptions/listen')).toBe(true);
    expect(notified('notifications/subscriptions/acknowledged')).toBe(true);
    expect(notified('notifications/tools/list_changed')).toBe(publishes);
  });
});

describe('the limit of a one-shot proxy config (stdio)', () => {
  test('an SDK v2 agent whose own StdioClientTransport probes on a sibling process cannot connect, and the proxy says why', async () => {
    const v2 = require('@modelcontextprotocol/client') as typeof import('@modelcontextprotocol/client');
    const { StdioClientTransport } =
      require('@modelcontextprotocol/client/stdio') as typeof import('@modelcontextprotocol/client/stdio');
    const { group } = setupGroup([v2Stdio('both')]);
    const [descriptor] = await group.start(new AbortController().signal);
    const { command, args } = descriptor as { command: string; args: string[] };
    const client = new v2.Client(
      { name: 'wire-test-v2-agent', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const transport = new StdioClientTransport({ command, args, stderr: 'pipe' });
    let stderr = '';
    transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    try {
      // The SDK adopts the sibling's answer, so connect() resolves; the session's own start of the
      // proxy then finds the config gone, and the first request fails.
      await expect(client.connect(transport).then(() => client.listTools())).rejects.toThrow();
    } finally {
      await client.close().catch(() => undefined);
      await group.close();
    }
    expect(stderr).toContain('it is one-shot, so a second start of this command finds it gone');
  });
});
