// What real ACP agents report about a tool call (update sequences as Claude Code ACP 0.16.2 and
// Gemini CLI 0.61.0 sent them in `npm run e2e:real-agents`), recorded by AcpUpdateRecorder next to
// the wire evidence of the same call, then projected: the report and the wire must agree.
import type { JsonObject } from '../../json';
import { TraceEventListBuilder } from '@sf-m3/test-utils/trace';
import type { ToolCallEntry } from '../../trace/TraceEntry';
import type { TraceRecorder } from '../../trace/TraceRecorder';
import { projectTraceView } from '../../trace/projection/projectTraceView';
import { AcpUpdateRecorder } from './AcpUpdateRecorder';

const QUOTE_TEXT = '{"amount":9,"currency":"USD"}';
const turn = { sessionId: 's', turnId: 'turn-1' };

/** Projects the one tool call of a turn in which the agent sent `updates` and the wire saw the call. */
function project(updates: JsonObject[], wireText = QUOTE_TEXT): ToolCallEntry {
  const builder = new TraceEventListBuilder({ runtime: 'acp', servers: [{ name: 'example' }] });
  const sink = {
    finished: false,
    record: (kind: Parameters<TraceEventListBuilder['add']>[0], fields: object) => builder.add(kind, fields),
  } as unknown as TraceRecorder;
  const recorder = new AcpUpdateRecorder(sink, ['example'], () => turn);
  recorder.beginTurn();
  const [first, ...rest] = updates;
  recorder.handle({ sessionId: 'agent-s', update: first });
  const wire = { ...turn, server: 'example', connectionId: 'c1', jsonrpcId: 3, origin: 'wire_observed' as const };
  builder.add('tool.call_requested', {
    ...wire,
    direction: 'client_to_server',
    payload: { method: 'tools/call', params: { name: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } } },
  });
  builder.add('tool.result_received', {
    ...wire,
    direction: 'server_to_client',
    payload: {
      method: 'tools/call',
      result: { content: [{ type: 'text', text: wireText }], structuredContent: { amount: 9, currency: 'USD' } },
    },
  });
  for (const update of rest) recorder.handle({ sessionId: 'agent-s', update });
  const view = projectTraceView(builder.finish('completed').toJSON());
  const calls = view.timeline.filter((e): e is ToolCallEntry => e.kind === 'tool_call');
  expect(calls).toHaveLength(1);
  return calls[0]!;
}

const claude = (firstInput: JsonObject, secondInput?: JsonObject): JsonObject[] => {
  const meta = { claudeCode: { toolName: 'mcp__example__shipping_quote' } };
  const call = { _meta: meta, toolCallId: 'toolu_1', sessionUpdate: 'tool_call', status: 'pending', kind: 'other' };
  const title = 'mcp__example__shipping_quote';
  return [
    { ...call, rawInput: firstInput, title, content: [] },
    ...(secondInput !== undefined ? [{ ...call, rawInput: secondInput, title, content: [] }] : []),
    { _meta: meta, toolCallId: 'toolu_1', sessionUpdate: 'tool_call_update' },
    {
      _meta: meta,
      toolCallId: 'toolu_1',
      sessionUpdate: 'tool_call_update',
      status: 'completed',
      rawOutput: QUOTE_TEXT,
      content: [{ type: 'content', content: { type: 'text', text: QUOTE_TEXT } }],
    },
  ];
};

const gemini = (text: string): JsonObject[] => [
  {
    sessionUpdate: 'tool_call_update',
    toolCallId: 'mcp_example_shipping_quote_0',
    status: 'completed',
    title: 'shipping_quote (example MCP Server)',
    content: [{ type: 'content', content: { type: 'text', text } }],
    locations: [],
    kind: 'other',
  },
];

describe('tool calls real ACP agents report, against the wire', () => {
  it('Claude Code ACP: the real input sent after a `{}` placeholder is the reported input; no conflict', () => {
    const call = project(claude({}, { weight_kg: 2, zone: 'local' }));
    expect(call.correlation).toBe('correlated');
    expect(call.reported.value?.arguments).toEqual({ state: 'observed', value: { weight_kg: 2, zone: 'local' } });
    expect(call.conflicts).toEqual([]);
  });

  it('Claude Code ACP: a string rawOutput is compared with the wire result by text', () => {
    const call = project(claude({}, { weight_kg: 2, zone: 'local' }), '{"amount":10,"currency":"USD"}');
    expect(call.conflicts.map((c) => c.field)).toEqual(['result']);
  });

  it('an agent whose only input report is `{}` still conflicts with the wire arguments', () => {
    const call = project(claude({}));
    expect(call.conflicts).toEqual([{ field: 'arguments', reported: {}, wire: { weight_kg: 2, zone: 'local' } }]);
  });

  it('Gemini CLI: no rawInput means arguments not reported; an ACP-content result matches by text', () => {
    const call = project(gemini(QUOTE_TEXT));
    expect(call.correlation).toBe('correlated');
    expect(call.reported.value?.arguments).toEqual({
      state: 'not_emitted',
      value: null,
      reason: 'provider_did_not_emit',
    });
    expect(call.conflicts).toEqual([]);
  });

  it('Gemini CLI: an ACP-content result with other text is a result conflict', () => {
    const call = project(gemini('{"amount":12,"currency":"USD"}'));
    expect(call.conflicts.map((c) => c.field)).toEqual(['result']);
  });
});
