// HTTP and in-process servers behind the loopback reverse proxy: a real SDK client uses the
// descriptor's URL as an agent would; the real example server (over `--http 0`, and its factory
// hosted in process) answers.
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createExampleServer, serveHttp, type HttpEndpoint } from '@sf-m3/example-servers';
import { ensureExampleServerBuilt, spawnExampleHttp } from '../../client/exampleTransports.testkit';
import { secretFromEnv } from '../../redaction/SecretRef';
import { HTTPServer } from '../../servers/HTTPServer';
import { InProcessServer } from '../../servers/InProcessServer';
import type { ServerDefinition } from '../../servers/ServerDefinition';
import { isAlive } from '../../transport/processTree';
import { connectAsAgent, eventRecorded, reportToolCall, setupGroup } from './wire.testkit';

let exampleHttp: { child: ChildProcess; url: string };
beforeAll(async () => {
  ensureExampleServerBuilt();
  exampleHttp = await spawnExampleHttp();
}, 120_000);
afterAll(async () => {
  exampleHttp.child.kill('SIGTERM');
  await new Promise((resolve) => exampleHttp.child.once('exit', resolve));
  expect(isAlive(exampleHttp.child.pid!)).toBe(false);
});

const rows: Array<[string, () => ServerDefinition]> = [
  ['http', () => new HTTPServer({ name: 'example', url: exampleHttp.url })],
  ['in_process', () => new InProcessServer({ name: 'example', factory: createExampleServer })],
];

const outcome = (p: Promise<unknown>): Promise<string> =>
  p.then(
    (r) => ((r as { isError?: boolean }).isError === true ? 'tool_error' : 'ok'),
    (e: Error) => e.message,
  );

/** create_order then get_order('order-001') under `tools`: the second shows whether the first reached the server. */
async function orderRoundTrip(make: () => ServerDefinition, tools: string[] | undefined) {
  const { group, recorder, scope, finish } = setupGroup([make()], tools);
  const [descriptor] = await group.start(new AbortController().signal);
  expect(descriptor).toEqual({
    type: 'http',
    name: 'example',
    url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}\/mcp$/),
    headers: [],
  });
  let client: Client | undefined;
  const outcomes: string[] = [];
  try {
    client = await connectAsAgent(descriptor!);
    await client.listTools();
    reportToolCall(recorder, scope, 'example', 'create_order', { customer_id: 'ada', item: 'tea', quantity: 1 }, 'p-1');
    outcomes.push(
      await outcome(
        client.callTool({ name: 'create_order', arguments: { customer_id: 'ada', item: 'tea', quantity: 1 } }),
      ),
    );
    outcomes.push(await outcome(client.callTool({ name: 'get_order', arguments: { order_id: 'order-001' } })));
  } finally {
    await client?.close();
    await group.sync();
    await group.close();
  }
  // The listener is gone once the group is closed.
  await expect(fetch(descriptor && 'url' in descriptor ? descriptor.url : '', { method: 'POST' })).rejects.toThrow();
  return { outcomes, view: finish().view(), recorder };
}

const denied = (tool: string, reason: string) =>
  `MCP error -32001: MCP tool call 'example:${tool}' was denied by this test's tool policy (${reason})`;

describe.each(rows)('AgentServerGroup over a %s server (reverse proxy)', (_kind, make) => {
  test('omitted tools: calls go through and are recorded as correlated wire evidence', async () => {
    const { outcomes, view, recorder } = await orderRoundTrip(make, undefined);
    expect(outcomes).toEqual(['ok', 'ok']);
    expect(view.toolCalls.map((c) => [c.tool.value, c.status, c.correlation, c.policy?.decision])).toEqual([
      ['create_order', 'success', 'correlated', 'allowed'],
      ['get_order', 'success', 'wire_only', 'allowed'],
    ]);
    const wire = recorder.events.filter((e) => e.origin === 'wire_observed');
    expect(new Set(wire.map((e) => e.connectionId)).size).toBe(1);
    expect(wire.every((e) => e.server === 'example' && e.sessionId === 'session-1')).toBe(true);
    expect(wire.map((e) => e.kind)).toEqual(
      expect.arrayContaining([
        'transport.connected',
        'mcp.request',
        'mcp.response',
        'mcp.notification',
        'tool.call_requested',
        'tool.result_received',
        'transport.disconnected',
      ]),
    );
    const calls = wire.filter((e) => e.kind === 'tool.call_requested');
    expect(
      calls.every((e) => typeof e.jsonrpcId === 'number' && e.direction === 'client_to_server' && e.rawEvidence),
    ).toBe(true);
  });

  test("['example:get_order']: create_order is answered by the proxy and never reaches the server", async () => {
    const { outcomes, view } = await orderRoundTrip(make, ['example:get_order']);
    expect(outcomes).toEqual([denied('create_order', 'not in the allowlist'), 'tool_error']);
    const [create, get] = view.toolCalls;
    expect(create).toMatchObject({
      status: 'protocol_error',
      correlation: 'correlated',
      policy: { decision: 'denied', reason: 'not in the allowlist' },
      error: { state: 'observed', value: { code: -32001 } },
    });
    // get_order ran on the server and found no order: the denied create_order never arrived.
    expect(get).toMatchObject({ status: 'tool_error', policy: { decision: 'allowed' } });
  });

  test('tools: [] denies every call', async () => {
    const { outcomes, view } = await orderRoundTrip(make, []);
    expect(outcomes).toEqual([
      denied('create_order', 'every tool is denied'),
      denied('get_order', 'every tool is denied'),
    ]);
    expect(view.toolCalls.map((c) => c.policy?.decision)).toEqual(['denied', 'denied']);
  });
});

describe('HTTP reverse proxy details', () => {
  const SECRET = 'wire-http-secret-41bd0e77';
  process.env.SF_M3_WIRE_HTTP_TOKEN = `Bearer ${SECRET}`;
  let endpoint: HttpEndpoint;
  beforeAll(async () => {
    endpoint = await serveHttp(() => {
      const server = new McpServer({ name: 'headers', version: '1.0.0' });
      server.registerTool('auth_header', {}, (extra) => ({
        content: [{ type: 'text', text: String(extra.requestInfo?.headers.authorization ?? 'none') }],
      }));
      return server;
    }, 0);
  });
  afterAll(() => endpoint.close());

  test("adds the server's headers itself: the agent never sees them, the trace never holds them", async () => {
    const server = new HTTPServer({
      name: 'headers',
      url: endpoint.url,
      headers: { Authorization: secretFromEnv('SF_M3_WIRE_HTTP_TOKEN') },
    });
    const { group, recorder, finish } = setupGroup([server]);
    const [descriptor] = await group.start(new AbortController().signal);
    expect(JSON.stringify(descriptor)).not.toContain(SECRET);
    let client: Client | undefined;
    try {
      client = await connectAsAgent(descriptor!);
      const result = await client.callTool({ name: 'auth_header', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: `Bearer ${SECRET}` }]);
    } finally {
      await client?.close();
      await group.close();
    }
    const trace = finish();
    expect(JSON.stringify(trace.toJSON())).not.toContain(SECRET);
    expect(recorder.evidence.some((b) => b.bytes.toString('utf8').includes(SECRET))).toBe(false);
    expect(trace.view().toolCalls[0]).toMatchObject({ status: 'success', tool: { value: 'auth_header' } });
  });

  test('never follows a redirect: the agent gets an error and the trace a diagnostic', async () => {
    const redirecting = createServer((_req, res) => res.writeHead(307, { location: endpoint.url }).end());
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/mcp`;
    const { group, finish } = setupGroup([new HTTPServer({ name: 'moved', url })]);
    try {
      const [descriptor] = await group.start(new AbortController().signal);
      await expect(connectAsAgent(descriptor!)).rejects.toThrow();
    } finally {
      await group.close();
      redirecting.closeAllConnections();
      await new Promise((resolve) => redirecting.close(resolve));
    }
    const diagnostics = finish()
      .events.filter((e) => e.kind === 'diagnostic')
      .map((e) => e.payload.code);
    expect(diagnostics).toContain('redirect_refused');
  });

  test('a call still open when the group closes ends as transport_error in the trace', async () => {
    const stalling = new InProcessServer({
      name: 'slow',
      factory: () => {
        const server = new McpServer({ name: 'slow', version: '1.0.0' });
        server.registerTool('stall', {}, () => new Promise<never>(() => undefined));
        return server;
      },
    });
    const { group, recorder, finish } = setupGroup([stalling]);
    const [descriptor] = await group.start(new AbortController().signal);
    const client = await connectAsAgent(descriptor!);
    const call = client.callTool({ name: 'stall', arguments: {} }).then(
      () => 'answered',
      () => 'failed',
    );
    await eventRecorded(recorder, (e) => e.kind === 'tool.call_requested');
    await group.close();
    // The SDK client may retry a lost SSE stream for a while; closing it ends the call at once.
    await client.close();
    expect(await call).toBe('failed');
    const [stall] = finish().view().toolCalls;
    expect(stall).toMatchObject({ tool: { value: 'stall' }, status: 'transport_error' });
  });

  test('a partly denied batch: the allowed call is forwarded, the denial appended to the answer', async () => {
    const { group, finish } = setupGroup(
      [new InProcessServer({ name: 'example', factory: createExampleServer })],
      ['example:shipping_quote'],
    );
    const [descriptor] = await group.start(new AbortController().signal);
    const url = (descriptor as { url: string }).url;
    const post = (body: unknown, session?: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-03-26',
          ...(session !== undefined && { 'mcp-session-id': session }),
        },
        body: JSON.stringify(body),
      });
    const messagesOf = async (response: Response): Promise<Array<{ id?: number; error?: { code: number } }>> => {
      const text = await response.text();
      if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) return [JSON.parse(text)].flat();
      return text
        .split('\n')
        .filter((line) => line.startsWith('data: ') && line.length > 6)
        .flatMap((line) => [JSON.parse(line.slice(6))].flat());
    };
    try {
      const init = await post({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      });
      const session = init.headers.get('mcp-session-id')!;
      expect(session).toBeTruthy();
      await messagesOf(init);
      await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
      const answers = await messagesOf(
        await post(
          [
            {
              jsonrpc: '2.0',
              id: 1,
              method: 'tools/call',
              params: { name: 'shipping_quote', arguments: { weight_kg: 1, zone: 'local' } },
            },
            { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'process_id', arguments: {} } },
          ],
          session,
        ),
      );
      expect(answers.map((a) => [a.id, a.error?.code ?? 'result'])).toEqual([
        [1, 'result'],
        [2, -32001],
      ]);
    } finally {
      await group.close();
    }
    expect(
      finish()
        .view()
        .toolCalls.map((c) => [c.tool.value, c.status, c.policy?.decision]),
    ).toEqual([
      ['shipping_quote', 'success', 'allowed'],
      ['process_id', 'protocol_error', 'denied'],
    ]);
  });
});
