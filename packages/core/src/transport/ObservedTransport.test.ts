import { inspect } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { TransportStartupError } from '../errors';
import { InProcessServer } from '../servers/InProcessServer';
import { TraceRecorder } from '../trace/TraceRecorder';
import { ObservedTransport } from './ObservedTransport';
import { openTransport } from './openTransport';
import { CONNECTION, setupRecorder } from './transportTest.testkit';

/** A recorder whose redactor knows the canary `observed-canary-1`. */
const setup = (): ReturnType<typeof setupRecorder> => setupRecorder(['observed-canary-1']);

/** An observed client end and the raw server end of a linked pair. */
async function pair(recorder: TraceRecorder): Promise<{
  observed: ObservedTransport;
  serverSide: InMemoryTransport;
  received: JSONRPCMessage[];
  serverReceived: JSONRPCMessage[];
}> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const observed = new ObservedTransport(clientSide, { recorder, server: 'fake', connectionId: CONNECTION });
  const received: JSONRPCMessage[] = [];
  const serverReceived: JSONRPCMessage[] = [];
  observed.onmessage = (m) => received.push(m);
  serverSide.onmessage = (m) => serverReceived.push(m);
  await serverSide.start();
  await observed.start();
  return { observed, serverSide, received, serverReceived };
}

describe('ObservedTransport', () => {
  it('records a tools/call pair as tool events carrying their raw frames, and passes messages on', async () => {
    const { recorder } = setup();
    const { observed, serverSide, received, serverReceived } = await pair(recorder);
    await observed.send({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'observed-canary-1' } },
    });
    await serverSide.send({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'ok' }] } });
    expect(serverReceived).toHaveLength(1);
    // The message passed on is the original, unredacted one.
    expect(JSON.stringify(serverReceived[0])).toContain('observed-canary-1');
    expect(received).toEqual([{ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'ok' }] } }]);

    const events = recorder.events.slice(1);
    expect(events.map((e) => [e.kind, e.direction, e.jsonrpcId, e.phase])).toEqual([
      ['tool.call_requested', 'client_to_server', 7, 'mcp_call'],
      ['tool.result_received', 'server_to_client', 7, 'mcp_call'],
    ]);
    const frame =
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"[REDACTED]"}}}';
    expect(events[0]!.payload).toEqual({
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: '[REDACTED]' } },
      // The frame's preview fields, merged in by the recorder.
      source: 'mcp',
      mediaType: 'application/json',
      preview: frame,
      previewTruncated: false,
      sizeBytes: Buffer.byteLength(frame),
      truncated: false,
      redacted: true,
    });
    expect(events[1]!.payload).toMatchObject({
      method: 'tools/call',
      result: { content: [{ type: 'text', text: 'ok' }] },
      redacted: false,
    });
    expect(events[0]!.rawEvidence?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(recorder.evidence.map((b) => b.bytes.toString())).toEqual([
      frame,
      '{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"ok"}]}}',
    ]);
    expect(events.every((e) => e.server === 'fake' && e.connectionId === CONNECTION)).toBe(true);
  });

  it('pairs errors, string ids, notifications, progress and server-to-client requests', async () => {
    const { recorder } = setup();
    const { observed, serverSide } = await pair(recorder);
    await observed.send({ jsonrpc: '2.0', id: '7', method: 'resources/read', params: { uri: 'x://y' } });
    await serverSide.send({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 0.5 },
    });
    await serverSide.send({ jsonrpc: '2.0', id: '7', error: { code: -32002, message: 'not found' } });
    await serverSide.send({ jsonrpc: '2.0', id: 7, method: 'sampling/createMessage', params: { messages: [] } });
    await observed.send({
      jsonrpc: '2.0',
      id: 7,
      result: { role: 'assistant', content: { type: 'text', text: 'hi' } },
    });
    await observed.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await observed.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } });
    await serverSide.send({ jsonrpc: '2.0', id: 99, result: {} });

    const decoded = recorder.events.slice(1);
    expect(decoded.map((e) => [e.kind, e.direction, e.jsonrpcId ?? null])).toEqual([
      ['mcp.request', 'client_to_server', '7'],
      ['mcp.progress', 'server_to_client', null],
      ['mcp.error', 'server_to_client', '7'],
      ['sampling.request', 'server_to_client', 7],
      ['sampling.response', 'client_to_server', 7],
      ['mcp.notification', 'client_to_server', null],
      ['mcp.cancellation_requested', 'client_to_server', null],
      ['mcp.response', 'server_to_client', 99],
    ]);
    expect(decoded[2]!.payload).toMatchObject({
      method: 'resources/read',
      error: { code: -32002, message: 'not found', data: null },
    });
    expect(decoded[4]!.payload.method).toBe('sampling/createMessage');
    expect(decoded[7]!.payload.method).toBe('unknown');
    expect(decoded.every((e) => e.rawEvidence !== undefined)).toBe(true);
  });

  it('records the close as transport.disconnected, once', async () => {
    const { recorder } = setup();
    const { observed } = await pair(recorder);
    let closed = 0;
    observed.onclose = () => (closed += 1);
    await observed.close();
    await observed.close();
    const disconnected = recorder.events.filter((e) => e.kind === 'transport.disconnected');
    expect(disconnected).toHaveLength(1);
    expect(disconnected[0]!.payload).toMatchObject({ reason: 'closed_by_client' });
    expect(closed).toBeGreaterThanOrEqual(1);
  });

  it('records transport errors as diagnostics without their messages', async () => {
    const { recorder } = setup();
    const [clientSide] = InMemoryTransport.createLinkedPair();
    const observed = new ObservedTransport(clientSide, { recorder, server: 'fake', connectionId: CONNECTION });
    const seen: Error[] = [];
    observed.onerror = (e) => seen.push(e);
    clientSide.onerror?.(new SyntaxError('Unexpected token in {"secret":"payload"}'));
    expect(seen).toHaveLength(1);
    const diagnostic = recorder.events.at(-1)!;
    expect(diagnostic.kind).toBe('diagnostic');
    expect(diagnostic.payload).toEqual({ code: 'transport_error', message: 'the transport reported SyntaxError' });
  });

  it('rate-limits repeated transport errors and records their summary before the close', async () => {
    const { recorder } = setup();
    const [clientSide] = InMemoryTransport.createLinkedPair();
    const observed = new ObservedTransport(clientSide, { recorder, server: 'fake', connectionId: CONNECTION });
    let seen = 0;
    observed.onerror = () => (seen += 1);
    for (let i = 0; i < 1_000; i += 1) clientSide.onerror?.(new SyntaxError(`bad line ${i}`));
    expect(seen).toBe(1_000);
    await observed.close();
    const kinds = recorder.events.map((e) => (e.payload.summarized === true ? 'summary' : e.kind));
    expect(kinds.filter((k) => k === 'diagnostic')).toHaveLength(20);
    expect(kinds.slice(-2)).toEqual(['summary', 'transport.disconnected']);
    expect(recorder.events.at(-2)!.payload).toMatchObject({
      code: 'transport_error',
      count: 1_000,
      summarizedCount: 980,
    });
    expect(recorder.events.at(-2)!.payload.message).toContain('1000 transport errors (SyntaxError)');
  });

  it('stops recording once the trace is finished, without breaking the transport', async () => {
    const { recorder } = setup();
    const { observed, serverReceived } = await pair(recorder);
    recorder.finish('completed');
    await observed.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(serverReceived).toHaveLength(1);
    expect(recorder.events.at(-1)!.kind).toBe('execution.finished');
  });
});

describe('openTransport (in-process)', () => {
  function factory(): McpServer {
    const server = new McpServer({ name: 'mem', version: '1.0.0' });
    let calls = 0;
    server.registerTool('count', { inputSchema: { by: z.number() } }, ({ by }) => {
      calls += by;
      return { content: [{ type: 'text', text: String(calls) }] };
    });
    return server;
  }

  it('links a fresh server per connection in memory', async () => {
    const { recorder, redactor } = setup();
    const server = new InProcessServer({ name: 'mem', factory });
    for (const expected of ['2', '2']) {
      const opened = await openTransport(server, { redactor, recorder, connectionId: CONNECTION });
      expect(opened.kind).toBe('in_process');
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(
        new ObservedTransport(opened.transport, { recorder, server: 'mem', connectionId: CONNECTION }),
      );
      const result = await client.callTool({ name: 'count', arguments: { by: 2 } });
      // State lives as long as one connection: a new connection starts from zero again.
      expect(result.content).toEqual([{ type: 'text', text: expected }]);
      await client.close();
      await opened.reap();
      await opened.reap();
    }
    const connected = recorder.events.filter((e) => e.kind === 'transport.connected');
    expect(connected.map((e) => e.payload.transport)).toEqual(['in_process', 'in_process']);
    expect(recorder.events.filter((e) => e.kind === 'transport.disconnected')).toHaveLength(2);
  });

  it('turns a failing factory into a startup error with a redacted message', async () => {
    const { recorder, redactor } = setup();
    const failing = new InProcessServer({
      name: 'broken',
      factory: () => {
        throw new RangeError('bad config observed-canary-1');
      },
    });
    const attempt = openTransport(failing, { redactor, recorder, connectionId: CONNECTION });
    await expect(attempt).rejects.toThrow(TransportStartupError);
    await expect(attempt).rejects.toThrow(
      'in-process server broken could not start: its factory threw RangeError: bad config [REDACTED]',
    );
    // Jest prints an error's cause: the factory's own error is attached redacted.
    const error = await attempt.catch((e: unknown) => e);
    expect(inspect(error)).not.toContain('observed-canary-1');
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it('refuses a factory that returns something else, or a server already connected', async () => {
    const { recorder, redactor } = setup();
    const wrong = new InProcessServer({ name: 'wrong', factory: () => ({}) as McpServer });
    await expect(openTransport(wrong, { redactor, recorder, connectionId: CONNECTION })).rejects.toThrow(
      /must return an McpServer or Server/,
    );
    const shared = factory();
    const reused = new InProcessServer({ name: 'reused', factory: () => shared });
    const first = await openTransport(reused, { redactor, recorder, connectionId: CONNECTION });
    await expect(openTransport(reused, { redactor, recorder, connectionId: CONNECTION })).rejects.toThrow(
      /return a new one on every call/,
    );
    await first.reap();
  });
});
