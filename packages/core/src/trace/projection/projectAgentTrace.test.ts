import type { EvidenceRef } from '../EvidenceRef';
import type {
  DiagnosticEntry,
  InteractionEntry,
  LifecycleEntry,
  MessageEntry,
  RawMessageEntry,
  ReasoningEntry,
  ToolCallEntry,
  UsageEntry,
  EvaluationEntry,
} from '../TraceEntry';
import { TraceEventListBuilder } from '@sf-m3/test-utils/trace';
import { projectTraceView } from './projectTraceView';

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
