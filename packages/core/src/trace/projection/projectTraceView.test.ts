import { createHash } from 'node:crypto';
import { TraceNotFinalized } from '../../errors';
import type { EvidenceRef } from '../EvidenceRef';
import type {
  DiagnosticEntry,
  InitializationEntry,
  InteractionEntry,
  LifecycleEntry,
  MessageEntry,
  ProcessEntry,
  ProtocolEntry,
  RawMessageEntry,
  ReasoningEntry,
  ToolCallEntry,
  TransportEntry,
  UsageEntry,
  EvaluationEntry,
} from '../TraceEntry';
import { buildDirectTrace, TraceEventListBuilder } from '../traceBuilder.testkit';
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

describe('projectTraceView on an agent trace', () => {
  const evidence: EvidenceRef = {
    evidenceId: `re:${'a'.repeat(64)}`,
    sha256: 'a'.repeat(64),
    sizeBytes: 10,
    mediaType: 'application/json',
    originalSizeBytes: 100,
    truncated: true,
    redacted: true,
  };
  const builder = new TraceEventListBuilder({ runtime: 'acp', servers: [{ name: 'shop' }, { name: 'bank' }] });
  const s = { sessionId: 'session-1' };
  const t1 = { ...s, turnId: 'turn-1' };
  builder.add('session.created', {
    ...s,
    payload: { sessionId: 'session-1', protocolVersion: '1', agent: { name: 'fixture' }, model: 'm' },
  });
  builder.add('turn.created', { ...s, payload: { turnId: 'turn-1', index: 1, prompt: 'hi' } });
  builder.add('agent.message', { ...t1, payload: { role: 'user', content: [{ type: 'text', text: 'hi' }] } });
  builder.add('reasoning', { ...t1, payload: { visibility: 'encrypted' } });
  builder.add('reasoning', { ...t1, payload: { visibility: 'visible', content: [{ type: 'text', text: 'think' }] } });
  builder.add('tool.call_requested', {
    ...t1,
    origin: 'harness_reported',
    server: 'shop',
    payload: { method: 'tools/call', params: { name: 'quote', arguments: { kg: 2 } }, providerCallId: 'p-1' },
  });
  builder.add('tool.call_requested', {
    ...t1,
    server: 'shop',
    connectionId: 'c1',
    jsonrpcId: 5,
    direction: 'client_to_server',
    origin: 'wire_observed',
    payload: { method: 'tools/call', params: { name: 'quote', arguments: { kg: 3 } } },
  });
  builder.add('tool.result_received', {
    ...t1,
    server: 'shop',
    connectionId: 'c1',
    jsonrpcId: 5,
    direction: 'server_to_client',
    origin: 'wire_observed',
    payload: { method: 'tools/call', result: { content: [{ type: 'text', text: '9' }], isError: false } },
  });
  builder.add('tool.result_received', {
    ...t1,
    origin: 'harness_reported',
    server: 'shop',
    payload: {
      method: 'tools/call',
      result: { content: [{ type: 'text', text: '9' }] },
      providerCallId: 'p-1',
      status: 'failed',
    },
  });
  builder.add('tool.call_requested', {
    ...t1,
    origin: 'harness_reported',
    payload: { method: 'tools/call', params: { name: 'read_file', arguments: { path: 'x' } }, providerCallId: 'p-2' },
  });
  builder.add('tool.result_received', {
    ...t1,
    origin: 'harness_reported',
    payload: { method: 'tools/call', result: 'file text', providerCallId: 'p-2', status: 'completed' },
  });
  builder.add('sampling.request', {
    ...t1,
    server: 'bank',
    jsonrpcId: 'srv-1',
    direction: 'server_to_client',
    payload: { method: 'sampling/createMessage', params: { messages: [] } },
  });
  builder.add('sampling.response', {
    ...t1,
    server: 'bank',
    jsonrpcId: 'srv-1',
    direction: 'client_to_server',
    payload: { method: 'sampling/createMessage', result: { content: { type: 'text', text: 'y' } } },
  });
  builder.add('raw.frame', {
    ...t1,
    server: 'shop',
    direction: 'server_to_client',
    rawEvidence: evidence,
    payload: {
      source: 'mcp',
      mediaType: 'application/json',
      preview: '{"jsonrpc"',
      previewTruncated: true,
      sizeBytes: 100,
    },
  });
  builder.add('raw.frame', { ...t1, payload: { preview: 'lost' } });
  builder.add('assistant.content', {
    ...t1,
    payload: {
      role: 'assistant',
      content: [
        { type: 'text', text: 'quoted ' },
        { type: 'text', text: 'local' },
      ],
      stopReason: 'end_turn',
    },
  });
  builder.add('usage', {
    ...t1,
    payload: { inputTokens: 10, outputTokens: 5, totalTokens: 15, reasoningTokens: null, cost: null, currency: null },
  });
  builder.add('evaluation.recorded', {
    ...t1,
    payload: { evaluationId: 'eval-1', evaluator: 'm3.expect.toHaveText', status: 'passed' },
  });
  builder.add('turn.state_changed', {
    ...t1,
    payload: { turnId: 'turn-1', outcome: 'completed', stopReason: 'end_turn' },
  });
  builder.add('provider.event', { ...s, payload: { anything: true } });
  const trace = builder.finish('completed', { limitations: ['capture_incomplete'] });
  const view = projectTraceView(trace.toJSON());
  const byKind = <T>(kind: string) => view.timeline.filter((e) => e.kind === kind) as unknown as T[];

  it('correlates reported and wire evidence, wire winning, conflicts listed', () => {
    const [quote, readFile] = byKind<ToolCallEntry>('tool_call');
    expect(quote).toMatchObject({
      correlation: 'correlated',
      providerCallId: 'p-1',
      status: 'success',
      arguments: { state: 'observed', value: { kg: 3 } },
      turnId: 'turn-1',
      sessionId: 'session-1',
    });
    expect(quote!.reported.state).toBe('observed');
    expect(quote!.conflicts).toEqual([
      { field: 'arguments', reported: { kg: 2 }, wire: { kg: 3 } },
      { field: 'status', reported: 'failed', wire: 'success' },
    ]);
    expect(readFile).toMatchObject({
      correlation: 'reported_only',
      status: 'success',
      wire: { state: 'not_emitted' },
      latencyMs: null,
      jsonrpcId: null,
      result: { state: 'observed', value: { content: [{ type: 'text', text: 'file text' }], isError: false } },
    });
  });

  it('projects messages, reasoning, usage, interactions, raw frames and evaluations', () => {
    const messages = byKind<MessageEntry>('message');
    expect(messages.map((m) => [m.role, m.text, m.stopReason.state])).toEqual([
      ['user', 'hi', 'not_emitted'],
      ['assistant', 'quoted local', 'observed'],
    ]);
    const reasoning = byKind<ReasoningEntry>('reasoning');
    expect(reasoning.map((r) => r.content)).toEqual([
      { state: 'encrypted', value: null, reason: 'provider_encrypted' },
      { state: 'observed', value: [{ type: 'text', text: 'think' }] },
    ]);
    expect(byKind<UsageEntry>('usage')[0]!.usage.value).toEqual({
      inputTokens: 10,
      outputTokens: 5,
      totalTokens: 15,
      reasoningTokens: null,
      cost: null,
      currency: null,
    });
    expect(byKind<InteractionEntry>('interaction')[0]).toMatchObject({
      interactionKind: 'sampling',
      status: 'completed',
      server: 'bank',
      response: { state: 'observed' },
    });
    const [raw] = byKind<RawMessageEntry>('raw_message');
    expect(raw).toMatchObject({
      source: 'mcp',
      direction: 'server_to_client',
      sizeBytes: 100,
      redacted: true,
      evidenceRef: evidence,
      preview: { state: 'truncated', value: '{"jsonrpc"', reason: 'evidence_truncated' },
    });
    expect(byKind<EvaluationEntry>('evaluation')[0]).toMatchObject({
      evaluator: 'm3.expect.toHaveText',
      evaluationStatus: 'passed',
    });
    const codes = byKind<DiagnosticEntry>('diagnostic').map((d) => d.code);
    expect(codes).toEqual(['unprojected_event', 'unprojected_event']);
  });

  it('puts turn lifecycle entries in their turn and counts turns and messages', () => {
    const lifecycle = byKind<LifecycleEntry>('lifecycle');
    expect(lifecycle.filter((l) => l.turnId === 'turn-1').map((l) => l.event)).toEqual([
      'turn.created',
      'turn.state_changed',
    ]);
    expect(view.summary).toMatchObject({
      turnCount: 1,
      messageCount: 2,
      toolCallCount: 2,
      activityHealth: 'all_succeeded',
    });
    expect(view.summary.usage.state).toBe('observed');
  });

  it('reports the agent runtime', () => {
    expect(view.runtime).toEqual({
      kind: 'acp',
      sessionId: { state: 'observed', value: 'session-1' },
      protocolVersion: { state: 'observed', value: '1' },
      agent: { state: 'observed', value: { name: 'fixture' } },
      model: { state: 'observed', value: 'm' },
      usage: view.summary.usage,
    });
  });

  it('round-trips through JSON unchanged', () => {
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
    expect(projectTraceView(trace.toJSON())).toEqual(view);
  });
});
