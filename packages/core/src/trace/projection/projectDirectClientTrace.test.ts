import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { createExampleServer } from '@sf-m3/example-servers';
import { createFeatureServer } from '@sf-m3/test-utils/client';
import { OperationCancelled, OperationTimeout, ProtocolError } from '../../errors';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { InProcessServer } from '../../servers/InProcessServer';
import { StdioServer } from '../../servers/StdioServer';
import { TraceResult } from '../TraceResult';
import { TraceView } from '../TraceView';

const example = new InProcessServer({ name: 'example', factory: createExampleServer });
const feature = new InProcessServer({ name: 'feature', factory: createFeatureServer });

describe('views of traces a real DirectClient recorded', () => {
  let kit: MCPTestKit;
  beforeEach(() => {
    kit = new MCPTestKit();
  });
  afterEach(async () => {
    await kit.close();
  });

  it('projects tool calls, protocol, transport and runtime from the wire', async () => {
    const client = await kit.direct(example).connect();
    await client.listTools();
    await client.callTool('shipping_quote', { weight_kg: 2, zone: 'local' });
    await client.callTool('always_fails');
    await client.callTool('no_such_tool');
    await client.ping();
    await client.close();
    const view = client.finalTrace!.view();

    expect(view.toolCalls.map((c) => [c.tool.value, c.status])).toEqual([
      ['shipping_quote', 'success'],
      ['always_fails', 'tool_error'],
      ['no_such_tool', 'tool_error'],
    ]);
    const [quote] = view.toolCalls;
    expect(quote!.arguments.value).toEqual({ weight_kg: 2, zone: 'local' });
    expect(quote!.result.value!.structuredContent).toEqual({
      state: 'observed',
      value: { amount: 9, currency: 'USD' },
    });
    expect(quote!.latencyMs).toEqual(expect.any(Number));
    expect(quote!.wire.state).toBe('observed');
    expect(quote!.reported.state).toBe('unsupported');
    expect(view.protocol.map((p) => p.method.value)).toEqual(
      expect.arrayContaining(['initialize', 'notifications/initialized', 'tools/list', 'ping']),
    );
    expect(view.protocol.every((p) => p.status === 'completed')).toBe(true);
    expect(view.runtime).toMatchObject({
      kind: 'direct',
      transport: { state: 'observed', value: 'in_process' },
      protocol: { state: 'observed', value: expect.any(String) },
      initialization: { state: 'observed' },
    });
    expect(view.initializations[0]!.tools.value).toEqual(expect.arrayContaining(['shipping_quote', 'always_fails']));
    expect(view.transports.map((t) => t.phase)).toEqual(['connected', 'disconnected']);
    expect(view.transports.every((t) => t.status === 'completed')).toBe(true);
    expect(view.rawMessages.length).toBeGreaterThan(0);
    expect(view.summary).toMatchObject({ toolCallCount: 3, successfulToolCallCount: 1, activityHealth: 'mixed' });
    expect(view).toMatchObject({ completeness: 'partial', limitations: ['capture_incomplete'], outcome: 'completed' });
    expect(view.lifecycle.map((l) => l.event)).toEqual(
      expect.arrayContaining(['execution.created', 'execution.finished']),
    );

    const stored = TraceResult.fromJSON(JSON.parse(JSON.stringify(client.finalTrace)));
    expect(stored.view()).toEqual(view);
    expect(TraceView.fromData(JSON.parse(JSON.stringify(view)))).toEqual(view);
    expect((await kit.getTraceView(client.executionId)).toJSON()).toEqual(view.toJSON());
  });

  it('maps timeouts, JSON-RPC errors, interactions, progress and close-time cancellation', async () => {
    const client = await kit
      .direct(feature, {
        onElicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
        onSampling: () => ({ role: 'assistant', model: 'fixture', content: { type: 'text', text: 'hi' } }),
        onRoots: () => [{ uri: 'file:///repo', name: 'repo' }],
      })
      .connect();
    await expect(client.callTool('slow', { ms: 2_000 }, { timeoutMs: 50 })).rejects.toThrow(OperationTimeout);
    await client.callTool('ask');
    await client.callTool('sample');
    await client.callTool('roots');
    await client.callTool('slow', { ms: 1, steps: 2 }, { onProgress: () => undefined });
    const pending = client.callTool('slow', { ms: 5_000 });
    pending.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await client.close();
    await expect(pending).rejects.toThrow(OperationCancelled);
    const view = client.finalTrace!.view();

    expect(view.toolCalls.map((c) => [c.tool.value, c.status])).toEqual([
      ['slow', 'timed_out'],
      ['ask', 'success'],
      ['sample', 'success'],
      ['roots', 'success'],
      ['slow', 'success'],
      ['slow', 'cancelled'],
    ]);
    expect(view.interactions.map((i) => [i.interactionKind, i.status])).toEqual([
      ['elicitation', 'completed'],
      ['sampling', 'completed'],
      ['roots', 'completed'],
    ]);
    expect(view.protocol.filter((p) => p.method.value === 'notifications/progress')).toHaveLength(2);
    expect(view.diagnostics.map((d) => d.code)).toEqual(
      expect.arrayContaining(['operation_timeout', 'operation_cancelled']),
    );
    expect(view.summary).toMatchObject({ toolCallCount: 6, protocolErrorCount: 0, activityHealth: 'mixed' });
    expect(view.outcome).toBe(client.result!.snapshot.outcome);
  });

  it('turns a JSON-RPC error answering tools/call into a protocol_error call', async () => {
    const strict = new InProcessServer({
      name: 'strict',
      factory: () => {
        const server = new Server({ name: 'strict', version: '1.0.0' }, { capabilities: { tools: {} } });
        server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
        server.setRequestHandler(CallToolRequestSchema, () => {
          throw new McpError(ErrorCode.InvalidParams, 'bad widget id');
        });
        return server;
      },
    });
    const client = await kit.direct(strict).connect();
    await expect(client.callTool('widget', { id: 7 })).rejects.toThrow(ProtocolError);
    await client.close();
    const [call] = client.finalTrace!.view().toolCalls;
    expect(call).toMatchObject({
      status: 'protocol_error',
      arguments: { state: 'observed', value: { id: 7 } },
      result: { state: 'not_emitted' },
      error: { state: 'observed', value: { code: ErrorCode.InvalidParams } },
    });
    expect(call!.error.value!.message).toContain('bad widget id');
    expect(client.finalTrace!.view().summary.protocolErrorCount).toBe(1);
  });

  it('projects the child process and stdio transport of a stdio server', async () => {
    const everything = new StdioServer({
      name: 'everything',
      command: process.execPath,
      args: [join(__dirname, '../../../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js')],
    });
    const client = await kit.direct(everything).connect();
    const echo = await client.callTool('echo', { message: 'hi' });
    await client.close();
    const view = client.finalTrace!.view();
    expect(echo.isError).toBe(false);
    expect(view.runtime).toMatchObject({ kind: 'direct', transport: { state: 'observed', value: 'stdio' } });
    const [proc] = view.processes;
    expect(proc).toMatchObject({
      server: 'everything',
      executable: { state: 'observed', value: expect.stringMatching(/^node/) },
      pid: { state: 'observed', value: expect.any(Number) },
    });
    expect(proc!.status).toBe('completed');
    expect(proc!.sequenceEnd).toBeGreaterThan(proc!.sequenceStart);
    expect(proc!.stderr.state).toBe('observed');
    expect(proc!.stderr.value!.preview).toContain('Starting');
    expect(view.rawMessages.filter((r) => r.source === 'process_stderr')).toHaveLength(1);
    expect(view.toolCalls.map((c) => [c.server, c.tool.value, c.status])).toEqual([['everything', 'echo', 'success']]);
  }, 20_000);
});
