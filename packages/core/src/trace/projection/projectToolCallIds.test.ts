import type { RuntimeKind } from '../../enums';
import type { JsonObject } from '../../json';
import type { ToolCallEntry } from '../TraceEntry';
import { TraceEventListBuilder } from '@sf-m3/test-utils/trace';
import { wireCallIds } from './correlateToolCalls';
import { projectTraceView } from './projectTraceView';

/** One reported call: the agent's report (request and result). */
interface Report {
  readonly providerCallId?: string;
  readonly tool?: string;
  readonly arguments: JsonObject;
  readonly turnId?: string;
  readonly sessionId?: string;
}

/** One wire `tools/call` exchange through the capture proxy. */
interface Wire {
  readonly meta?: JsonObject;
  readonly tool?: string;
  readonly arguments: JsonObject;
  readonly turnId?: string;
  readonly sessionId?: string;
}

/** A trace whose wire exchanges come first (in `wires` order), then the agent's reports (in `reports` order). */
function project(runtime: RuntimeKind, wires: readonly Wire[], reports: readonly Report[]): ToolCallEntry[] {
  const builder = new TraceEventListBuilder({ runtime, servers: [{ name: 'example' }] });
  wires.forEach((wire, index) => {
    const scope = { sessionId: wire.sessionId ?? 's', turnId: wire.turnId ?? 'turn-1', server: 'example' };
    const at = { ...scope, connectionId: 'c1', jsonrpcId: index + 1, origin: 'wire_observed' as const };
    const params = {
      name: wire.tool ?? 'add_tool',
      arguments: wire.arguments,
      ...(wire.meta !== undefined && { _meta: wire.meta }),
    };
    builder.add('tool.call_requested', {
      ...at,
      direction: 'client_to_server',
      payload: { method: 'tools/call', params },
    });
    builder.add('tool.result_received', {
      ...at,
      direction: 'server_to_client',
      payload: { method: 'tools/call', result: { content: [{ type: 'text', text: JSON.stringify(wire.arguments) }] } },
    });
  });
  for (const report of reports) {
    const at = {
      sessionId: report.sessionId ?? 's',
      turnId: report.turnId ?? 'turn-1',
      server: 'example',
      origin: 'harness_reported' as const,
    };
    const ids: JsonObject = report.providerCallId !== undefined ? { providerCallId: report.providerCallId } : {};
    const params = { name: report.tool ?? 'add_tool', arguments: report.arguments };
    builder.add('tool.call_requested', { ...at, payload: { method: 'tools/call', params, ...ids } });
    builder.add('tool.result_received', { ...at, payload: { method: 'tools/call', ...ids, status: 'completed' } });
  }
  const view = projectTraceView(builder.finish('completed').toJSON());
  return view.timeline.filter((e): e is ToolCallEntry => e.kind === 'tool_call');
}

/** Per entry: correlation, the reported arguments next to the wire arguments, and the conflicting fields. */
const pairing = (calls: readonly ToolCallEntry[]) =>
  calls.map((c) => ({
    correlation: c.correlation,
    wire: c.wire.value?.arguments ?? null,
    reported: c.reported.value?.arguments.value ?? null,
    conflicts: c.conflicts.map((x) => x.field),
  }));

describe('correlating reported tool calls with wire calls by _meta ids', () => {
  // The agent reports its two calls in the order it asked for them; the wire saw them the other way round.
  const reports = [
    { providerCallId: 'toolu_A', arguments: { a: 1, b: 2 } },
    { providerCallId: 'toolu_B', arguments: { a: 3, b: 4 } },
  ];

  it('pairs two calls of one tool by claudecode/toolUseId where order alone mis-pairs them', () => {
    const wires = [
      { meta: { 'claudecode/toolUseId': 'toolu_B' }, arguments: { a: 3, b: 4 } },
      { meta: { 'claudecode/toolUseId': 'toolu_A' }, arguments: { a: 1, b: 2 } },
    ];
    expect(pairing(project('claude_code', wires, reports))).toEqual([
      { correlation: 'correlated', wire: { a: 3, b: 4 }, reported: { a: 3, b: 4 }, conflicts: [] },
      { correlation: 'correlated', wire: { a: 1, b: 2 }, reported: { a: 1, b: 2 }, conflicts: [] },
    ]);
    expect(project('claude_code', wires, reports).map((c) => c.providerCallId)).toEqual(['toolu_B', 'toolu_A']);
    // The same trace without the ids: order pairs each report with the other call.
    const blind = wires.map(({ arguments: args }) => ({ arguments: args }));
    expect(pairing(project('claude_code', blind, reports))).toEqual([
      { correlation: 'correlated', wire: { a: 3, b: 4 }, reported: { a: 1, b: 2 }, conflicts: ['arguments'] },
      { correlation: 'correlated', wire: { a: 1, b: 2 }, reported: { a: 3, b: 4 }, conflicts: ['arguments'] },
    ]);
  });

  it('pairs by Codex callId across turns and tool names, listing the disagreement', () => {
    const calls = project(
      'codex',
      [{ meta: { callId: 'call_1_1', threadId: 't' }, tool: 'shipping_quote', arguments: { kg: 2 }, turnId: 'turn-1' }],
      [{ providerCallId: 'call_1_1', tool: 'quote', arguments: { kg: 2 }, turnId: 'turn-2' }],
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ correlation: 'correlated', providerCallId: 'call_1_1' });
    expect(calls[0]!.conflicts).toEqual([
      { field: 'turn', reported: 'turn-2', wire: 'turn-1' },
      { field: 'tool', reported: 'quote', wire: 'shipping_quote' },
    ]);
  });

  it('does not pair by id across sessions, and prefers a wire call whose id names no other call', () => {
    const otherSession = project(
      'codex',
      [{ meta: { callId: 'call_1_1' }, tool: 'shipping_quote', arguments: { kg: 2 }, sessionId: 's1' }],
      [{ providerCallId: 'call_1_1', tool: 'quote', arguments: { kg: 2 }, sessionId: 's2' }],
    );
    expect(otherSession.map((c) => c.correlation)).toEqual(['wire_only', 'reported_only']);

    const calls = project(
      'codex',
      [{ meta: { callId: 'call_other' }, arguments: { a: 1 } }, { arguments: { a: 2 } }],
      [{ providerCallId: 'call_mine', arguments: { a: 2 } }],
    );
    expect(pairing(calls)).toEqual([
      { correlation: 'wire_only', wire: { a: 1 }, reported: null, conflicts: [] },
      { correlation: 'correlated', wire: { a: 2 }, reported: { a: 2 }, conflicts: [] },
    ]);
  });

  it('falls back to the same tool with equal arguments when the turn differs and no id matches', () => {
    const calls = project(
      'opencode',
      [
        { arguments: { a: 9 }, turnId: 'turn-1' },
        { arguments: { a: 1 }, turnId: 'turn-1' },
      ],
      [
        { providerCallId: 'x', arguments: { a: 1 }, turnId: 'turn-2' },
        { providerCallId: 'y', arguments: { a: 5 }, turnId: 'turn-2' },
      ],
    );
    expect(pairing(calls)).toEqual([
      { correlation: 'wire_only', wire: { a: 9 }, reported: null, conflicts: [] },
      { correlation: 'correlated', wire: { a: 1 }, reported: { a: 1 }, conflicts: ['turn'] },
      { correlation: 'reported_only', wire: null, reported: { a: 5 }, conflicts: [] },
    ]);
  });
});

describe('wireCallIds', () => {
  it('reads the known _meta keys as strings and ignores anything else', () => {
    const request = (params: JsonObject) => ({ payload: { method: 'tools/call', params } }) as never;
    expect(wireCallIds(request({ name: 't', _meta: { 'claudecode/toolUseId': 'toolu_1', progressToken: 3 } }))).toEqual(
      ['toolu_1'],
    );
    expect(wireCallIds(request({ name: 't', _meta: { callId: 'call_1', 'x-codex-turn-metadata': {} } }))).toEqual([
      'call_1',
    ]);
    expect(wireCallIds(request({ name: 't', _meta: { callId: 7 } }))).toEqual([]);
    expect(wireCallIds(request({ name: 't' }))).toEqual([]);
  });
});
