import { TraceNotFinalized } from '../../errors';
import type { DiagnosticEntry, InitializationEntry, ProtocolEntry, ToolCallEntry } from '../TraceEntry';
import { buildDirectTrace, TraceEventListBuilder } from '@sf-m3/test-utils/trace';
import { projectTraceView } from './projectTraceView';

describe('projectTraceView health and runtime edge cases', () => {
  it.each([
    [[], 'no_calls'],
    [[{ tool: 'a' }, { tool: 'b' }], 'all_succeeded'],
    [
      [
        { tool: 'a', isError: true },
        { tool: 'b', error: { code: -1, message: 'x' } },
      ],
      'all_failed',
    ],
  ] as const)('activity health of %j is %s', (calls, health) => {
    const view = projectTraceView(buildDirectTrace({ calls: [...calls] }).toJSON());
    expect(view.summary.activityHealth).toBe(health);
  });

  it('says not_emitted when the connection never initialized', () => {
    const builder = new TraceEventListBuilder();
    builder.add('transport.connected', { payload: { transport: 'http', instrumented: 'x' } });
    const view = projectTraceView(builder.finish('failed').toJSON());
    expect(view.runtime).toMatchObject({
      kind: 'direct',
      transport: { state: 'observed', value: 'http' },
      protocol: { state: 'not_emitted' },
      initialization: { state: 'not_emitted' },
    });
    expect(view.outcome).toBe('failed');
  });

  it('marks malformed sources unavailable instead of guessing', () => {
    const builder = new TraceEventListBuilder({ servers: [{ name: 'only' }] });
    builder.add('transport.connected', { payload: { transport: 'carrier-pigeon' } });
    builder.add('mcp.initialized', { payload: { protocolVersion: 7, serverInfo: 'x', capabilities: [] } });
    builder.add('tool.call_requested', {
      jsonrpcId: 1,
      direction: 'client_to_server',
      payload: { method: 'tools/call', params: { name: 3, arguments: 'x' } },
    });
    builder.add('tool.result_received', {
      jsonrpcId: 1,
      direction: 'server_to_client',
      payload: { method: 'tools/call', result: { content: 'nope' } },
    });
    const view = projectTraceView(builder.finish().toJSON());
    expect(view.runtime).toMatchObject({
      transport: { state: 'unavailable', reason: 'malformed_source' },
      initialization: { state: 'unavailable', reason: 'malformed_source' },
      protocol: { state: 'unavailable', reason: 'malformed_source' },
    });
    const call = view.timeline.find((e): e is ToolCallEntry => e.kind === 'tool_call')!;
    expect(call.server).toBe('only');
    // Only server-related entries inherit the single bound server; lifecycle entries do not.
    expect(view.timeline.filter((e) => e.kind === 'lifecycle').every((e) => e.server === undefined)).toBe(true);
    expect(call.tool).toEqual({ state: 'unavailable', value: null, reason: 'malformed_source' });
    expect(call.arguments.state).toBe('unavailable');
    expect(call.result.state).toBe('unavailable');
    expect(call.status).toBe('protocol_error');
  });

  it('lists the tools each connection discovered on its initialization entry', () => {
    const trace = buildDirectTrace({
      server: 'a',
      calls: [{ tool: 'x', server: 'b' }],
      listedTools: { a: ['x', 'y'], b: ['x'] },
    });
    const view = projectTraceView(trace.toJSON());
    const inits = view.timeline.filter((e): e is InitializationEntry => e.kind === 'initialization');
    expect(inits.map((i) => [i.server, i.tools])).toEqual([
      ['a', { state: 'observed', value: ['x', 'y'] }],
      ['b', { state: 'observed', value: ['x'] }],
    ]);
    const protocol = view.timeline.filter((e): e is ProtocolEntry => e.kind === 'protocol');
    expect(protocol.filter((p) => p.method.value === 'tools/list').map((p) => p.status)).toEqual([
      'completed',
      'completed',
    ]);
    const unlisted = projectTraceView(buildDirectTrace().toJSON());
    const [init] = unlisted.timeline.filter((e): e is InitializationEntry => e.kind === 'initialization');
    expect(init!.tools).toEqual({ state: 'not_emitted', value: null, reason: 'provider_did_not_emit' });
  });

  it('keeps a request recorded without a JSON-RPC id as an incomplete entry', () => {
    const builder = new TraceEventListBuilder();
    builder.add('mcp.request', { direction: 'client_to_server', payload: { method: 'ping', params: {} } });
    builder.add('tool.call_requested', {
      direction: 'client_to_server',
      payload: { method: 'tools/call', params: { name: 'a' } },
    });
    const view = projectTraceView(builder.finish().toJSON());
    const entries = view.timeline.filter((e) => e.kind === 'protocol' || e.kind === 'tool_call');
    expect(entries.map((e) => [e.kind, e.status])).toEqual([
      ['protocol', 'incomplete'],
      ['tool_call', 'incomplete'],
    ]);
  });

  it('throws TraceNotFinalized for an unfinished trace', () => {
    const builder = new TraceEventListBuilder();
    expect(() => projectTraceView(builder.data())).toThrow(TraceNotFinalized);
  });

  it('pairs responses by connection and id, and keeps unmatched responses as diagnostics', () => {
    const builder = new TraceEventListBuilder();
    const a = { server: 'a', connectionId: 'conn-a' };
    const b = { server: 'b', connectionId: 'conn-b' };
    builder.add('mcp.request', {
      ...a,
      jsonrpcId: 1,
      direction: 'client_to_server',
      payload: { method: 'tools/list', params: {} },
    });
    builder.add('mcp.request', {
      ...b,
      jsonrpcId: 1,
      direction: 'client_to_server',
      payload: { method: 'ping', params: {} },
    });
    builder.add('mcp.response', {
      ...b,
      jsonrpcId: 1,
      direction: 'server_to_client',
      payload: { method: 'ping', result: {} },
    });
    builder.add('mcp.error', {
      ...a,
      jsonrpcId: 1,
      direction: 'server_to_client',
      payload: { method: 'tools/list', error: { code: -32601, message: 'no' } },
    });
    builder.add('mcp.response', {
      ...a,
      jsonrpcId: 99,
      direction: 'server_to_client',
      payload: { method: 'x', result: {} },
    });
    const view = projectTraceView(builder.finish().toJSON());
    const protocol = view.timeline.filter((e): e is ProtocolEntry => e.kind === 'protocol');
    expect(protocol.map((p) => [p.server, p.method.value, p.status, p.sequenceEnd])).toEqual([
      ['a', 'tools/list', 'protocol_error', 4],
      ['b', 'ping', 'completed', 3],
    ]);
    expect(protocol[0]!.error.value).toEqual({ code: -32601, message: 'no', data: null });
    const diagnostic = view.timeline.find((e): e is DiagnosticEntry => e.kind === 'diagnostic')!;
    expect(diagnostic).toMatchObject({ code: 'unmatched_response', status: 'incomplete', sequenceStart: 5 });
    expect(view.summary.protocolErrorCount).toBe(1);
  });

  it('treats a client cancellation notification as ending the call, and a later timeout diagnostic as outranking it', () => {
    const builder = new TraceEventListBuilder();
    builder.add('tool.call_requested', {
      jsonrpcId: 1,
      direction: 'client_to_server',
      payload: { method: 'tools/call', params: { name: 'a' } },
    });
    builder.add('mcp.notification', {
      direction: 'client_to_server',
      payload: { method: 'notifications/cancelled', params: { requestId: 1 } },
    });
    builder.add('tool.call_requested', {
      jsonrpcId: 2,
      direction: 'client_to_server',
      payload: { method: 'tools/call', params: { name: 'b' } },
    });
    builder.add('mcp.cancellation_requested', {
      direction: 'client_to_server',
      payload: { method: 'notifications/cancelled', params: { requestId: 2 } },
    });
    builder.add('diagnostic', { jsonrpcId: 2, payload: { code: 'operation_timeout', message: 'timed out' } });
    builder.add('tool.result_received', {
      jsonrpcId: 2,
      direction: 'server_to_client',
      payload: { method: 'tools/call', result: { content: [] } },
    });
    const view = projectTraceView(builder.finish().toJSON());
    const calls = view.timeline.filter((e): e is ToolCallEntry => e.kind === 'tool_call');
    expect(calls.map((c) => c.status)).toEqual(['cancelled', 'timed_out']);
    expect(calls[0]!.arguments.state).toBe('not_emitted');
  });
});
