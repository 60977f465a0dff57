import { createHash } from 'node:crypto';
import type {
  DiagnosticEntry,
  InitializationEntry,
  LifecycleEntry,
  ProcessEntry,
  ProtocolEntry,
  ToolCallEntry,
  TransportEntry,
} from '../TraceEntry';
import { buildDirectTrace } from '@sf-m3/test-utils/trace';
import { projectTraceView } from './projectTraceView';

const sha = (ids: string[]) => `entry:${createHash('sha256').update(ids.join('\n')).digest('hex')}`;

describe('projectTraceView on a direct trace', () => {
  const trace = buildDirectTrace({
    server: 'math',
    calls: [
      {
        tool: 'add',
        arguments: { a: 1, b: 2 },
        result: { content: [{ type: 'text', text: '{"result":3}' }], structuredContent: { result: 3 } },
        latencyMs: 7,
      },
      {
        tool: 'divide',
        arguments: { a: 1, b: 0 },
        isError: true,
        result: { content: [{ type: 'text', text: 'division by zero' }] },
      },
      { tool: 'nope', error: { code: -32602, message: 'unknown tool: nope' } },
      { tool: 'slow', unanswered: 'timed_out', latencyMs: 30 },
      { tool: 'stuck', unanswered: 'cancelled' },
      { tool: 'broken', unanswered: 'transport_error' },
      { tool: 'never', unanswered: 'incomplete' },
    ],
  });
  const view = projectTraceView(trace.toJSON());
  const calls = view.timeline.filter((e): e is ToolCallEntry => e.kind === 'tool_call');

  it('is deterministic', () => {
    expect(projectTraceView(trace.toJSON())).toEqual(view);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
  });

  it('derives entry ids from the source event ids', () => {
    const add = calls[0]!;
    const ids = trace.events.slice(add.sequenceStart, add.sequenceEnd + 1).map((e) => e.eventId);
    expect(add.entryId).toBe(sha(ids));
    expect(new Set(view.timeline.map((e) => e.entryId)).size).toBe(view.timeline.length);
  });

  it('orders the timeline by sequence', () => {
    const starts = view.timeline.map((e) => e.sequenceStart);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it('maps every way a call can end to its status', () => {
    expect(calls.map((c) => [c.tool.value, c.status])).toEqual([
      ['add', 'success'],
      ['divide', 'tool_error'],
      ['nope', 'protocol_error'],
      ['slow', 'timed_out'],
      ['stuck', 'cancelled'],
      ['broken', 'transport_error'],
      ['never', 'incomplete'],
    ]);
    for (const call of calls) expect(call.toolStatus).toBe(call.status);
  });

  it('records the wire call with arguments, result and latency', () => {
    const add = calls[0]!;
    expect(add).toMatchObject({
      server: 'math',
      jsonrpcId: 1,
      latencyMs: 7,
      arguments: { state: 'observed', value: { a: 1, b: 2 } },
      result: {
        state: 'observed',
        value: {
          content: [{ type: 'text', text: '{"result":3}' }],
          structuredContent: { state: 'observed', value: { result: 3 } },
          isError: false,
        },
      },
      error: { state: 'not_emitted', value: null, reason: 'provider_did_not_emit' },
      correlation: 'wire_only',
      conflicts: [],
      providerCallId: null,
    });
    expect(add.callId).toMatch(/^call-[0-9a-f]{32}$/);
    expect(add.wire).toEqual({
      state: 'observed',
      value: { jsonrpcId: 1, server: 'math', tool: 'add', arguments: { a: 1, b: 2 }, result: add.result, latencyMs: 7 },
    });
    expect(add.reported).toEqual({ state: 'unsupported', value: null, reason: 'harness_unsupported' });
    expect(add.endMs - add.startMs).toBe(7);
  });

  it('keeps a missing structuredContent as not emitted, never null posing as observed', () => {
    const divide = calls[1]!;
    expect(divide.result.value!.structuredContent).toEqual({
      state: 'not_emitted',
      value: null,
      reason: 'provider_did_not_emit',
    });
    expect(divide.result.value!.isError).toBe(true);
  });

  it('carries the JSON-RPC error of a protocol_error call', () => {
    const nope = calls[2]!;
    expect(nope.error).toEqual({
      state: 'observed',
      value: { code: -32602, message: 'unknown tool: nope', data: null },
    });
    expect(nope.result.state).toBe('not_emitted');
    expect(nope.latencyMs).toBe(5);
  });

  it('gives unanswered calls no latency and no result, and spans them to what ended them', () => {
    const slow = calls[3]!;
    expect(slow.latencyMs).toBeNull();
    expect(slow.result.state).toBe('not_emitted');
    expect(slow.sequenceEnd).toBe(slow.sequenceStart + 1);
    expect(slow.endMs - slow.startMs).toBe(30);
    const never = calls[6]!;
    expect(never.sequenceEnd).toBe(never.sequenceStart);
  });

  it('keeps the diagnostics that ended calls as their own entries', () => {
    const diagnostics = view.timeline.filter((e): e is DiagnosticEntry => e.kind === 'diagnostic');
    expect(diagnostics.map((d) => [d.code, d.status])).toEqual([
      ['operation_timeout', 'timed_out'],
      ['operation_cancelled', 'cancelled'],
      ['transport_closed', 'transport_error'],
    ]);
    expect(diagnostics[0]).toMatchObject({ operation: 'tools/call', elapsedMs: 30 });
  });

  it('projects the initialize exchange, initialization and notification', () => {
    const protocol = view.timeline.filter((e): e is ProtocolEntry => e.kind === 'protocol');
    expect(protocol.map((p) => p.method.value)).toEqual(['initialize', 'notifications/initialized']);
    expect(protocol[0]).toMatchObject({ status: 'completed', jsonrpcId: 0, direction: 'client_to_server' });
    expect(protocol[0]!.response.state).toBe('observed');
    expect(protocol[1]!.response.state).toBe('not_emitted');
    // The recorder writes absent params as null: not_emitted, never an observed null.
    expect(protocol[1]!.request).toEqual({ state: 'not_emitted', value: null, reason: 'provider_did_not_emit' });
    const [init] = view.timeline.filter((e): e is InitializationEntry => e.kind === 'initialization');
    expect(init).toMatchObject({
      protocolVersion: { state: 'observed', value: '2025-11-25' },
      serverName: { state: 'observed', value: 'math-server' },
      serverVersion: { state: 'observed', value: '1.0.0' },
      instructions: { state: 'not_emitted' },
      capabilities: { state: 'observed', value: { tools: {} } },
    });
  });

  it('projects transports, the process and lifecycle', () => {
    const transports = view.timeline.filter((e): e is TransportEntry => e.kind === 'transport');
    expect(transports.map((t) => [t.phase, t.configured.value, t.instrumented.value])).toEqual([
      ['connected', 'stdio', 'sdk-transport-wrapper'],
      ['disconnected', 'stdio', 'sdk-transport-wrapper'],
    ]);
    expect(transports[1]!.reason).toBe('client_close');
    const [process] = view.timeline.filter((e): e is ProcessEntry => e.kind === 'process');
    expect(process).toMatchObject({
      status: 'completed',
      executable: { state: 'observed', value: 'node' },
      pid: { state: 'observed', value: 40000 },
      exitCode: { state: 'not_emitted' },
      signal: { state: 'observed', value: 'SIGTERM' },
      stderr: { state: 'observed', value: { preview: '', sizeBytes: 0, truncated: false, redacted: true } },
    });
    const lifecycle = view.timeline.filter((e): e is LifecycleEntry => e.kind === 'lifecycle');
    expect(lifecycle.map((l) => [l.event, l.phase])).toEqual([
      ['execution.created', 'created'],
      ['execution.finished', 'finished'],
    ]);
  });

  it('summarizes the whole trace', () => {
    expect(view.summary).toMatchObject({
      turnCount: 0,
      messageCount: 0,
      toolCallCount: 7,
      successfulToolCallCount: 1,
      failedToolCallCount: 6,
      protocolErrorCount: 1,
      activityHealth: 'mixed',
      usage: { state: 'unsupported', reason: 'transport_not_applicable' },
    });
    const first = trace.events[0]!;
    const last = trace.events.at(-1)!;
    expect(view.summary.timing).toEqual({
      startedAt: first.timestamp,
      finishedAt: last.timestamp,
      durationMs: last.offsetMs - first.offsetMs,
    });
  });

  it('reports the direct runtime from what was observed', () => {
    expect(view.runtime).toEqual({
      kind: 'direct',
      transport: { state: 'observed', value: 'stdio' },
      protocol: { state: 'observed', value: '2025-11-25' },
      initialization: {
        state: 'observed',
        value: {
          protocolVersion: '2025-11-25',
          serverInfo: { name: 'math-server', version: '1.0.0' },
          capabilities: { tools: {} },
          instructions: null,
        },
      },
    });
    expect(view).toMatchObject({ outcome: 'completed', completeness: 'partial', limitations: ['capture_incomplete'] });
  });
});
