import type { JsonObject } from '../../json';
import type { ToolCallEntry } from '../TraceEntry';
import { TraceEventListBuilder } from '@sf-m3/test-utils/trace';
import { projectTraceView } from './projectTraceView';

const turn = { sessionId: 's', turnId: 'turn-1', server: 'example' };

/** A trace of one turn: per call, the agent's report (request, result) and the wire exchange. */
function trace(calls: Array<{ providerCallId: string; arguments: JsonObject }>): ToolCallEntry[] {
  const builder = new TraceEventListBuilder({ runtime: 'openai', servers: [{ name: 'example' }] });
  calls.forEach((call, index) => {
    const params = { name: 'add_tool', arguments: call.arguments };
    const result = { content: [{ type: 'text', text: String(index) }] };
    const reported = { ...turn, origin: 'harness_reported' as const };
    const wire = { ...turn, connectionId: 'c1', jsonrpcId: index + 1, origin: 'wire_observed' as const };
    const providerCallId = call.providerCallId;
    builder.add('tool.call_requested', { ...reported, payload: { method: 'tools/call', params, providerCallId } });
    builder.add('tool.call_requested', {
      ...wire,
      direction: 'client_to_server',
      payload: { method: 'tools/call', params },
    });
    builder.add('tool.result_received', {
      ...wire,
      direction: 'server_to_client',
      payload: { method: 'tools/call', result },
    });
    builder.add('tool.result_received', {
      ...reported,
      payload: { method: 'tools/call', result, providerCallId, status: 'completed' },
    });
  });
  const view = projectTraceView(builder.finish('completed').toJSON());
  return view.timeline.filter((e): e is ToolCallEntry => e.kind === 'tool_call');
}

describe('reported tool calls that share a providerCallId', () => {
  it('an id reused after its call has a result is a new call (models that number calls per round)', () => {
    const calls = trace([
      { providerCallId: 'call_0', arguments: { a: 1, b: 2 } },
      { providerCallId: 'call_0', arguments: { a: 3, b: 4 } },
    ]);
    expect(calls.map((c) => [c.correlation, c.conflicts])).toEqual([
      ['correlated', []],
      ['correlated', []],
    ]);
    expect(calls.map((c) => c.reported.value?.arguments.value)).toEqual([
      { a: 1, b: 2 },
      { a: 3, b: 4 },
    ]);
  });
});
