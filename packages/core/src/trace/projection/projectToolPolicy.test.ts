import type { ToolCallEntry } from '../TraceEntry';
import { TraceEventListBuilder } from '@sf-m3/test-utils/trace';
import { projectTraceView } from './projectTraceView';

describe('projectTraceView: tool policy verdicts from the capture layer', () => {
  const builder = new TraceEventListBuilder({ runtime: 'acp', servers: [{ name: 'shop' }] });
  const t1 = { sessionId: 'session-1', turnId: 'turn-1' };
  const wire = { ...t1, server: 'shop', connectionId: 'c1', origin: 'wire_observed' as const };
  builder.add('tool.call_requested', {
    ...t1,
    origin: 'harness_reported',
    server: 'shop',
    payload: { method: 'tools/call', params: { name: 'delete', arguments: {} }, providerCallId: 'p-1' },
  });
  builder.add('tool.call_requested', {
    ...wire,
    jsonrpcId: 4,
    direction: 'client_to_server',
    payload: {
      method: 'tools/call',
      params: { name: 'delete', arguments: {} },
      policy: { decision: 'denied', reason: 'not in the allowlist' },
    },
  });
  builder.add('mcp.error', {
    ...wire,
    jsonrpcId: 4,
    direction: 'server_to_client',
    payload: {
      method: 'tools/call',
      answeredBy: 'proxy',
      error: {
        code: -32001,
        message: "MCP tool call 'shop:delete' was denied by this test's tool policy (not in the allowlist)",
        data: { server: 'shop', tool: 'delete', reason: 'not in the allowlist' },
      },
    },
  });
  builder.add('tool.call_requested', {
    ...wire,
    jsonrpcId: 5,
    direction: 'client_to_server',
    payload: {
      method: 'tools/call',
      params: { name: 'quote', arguments: {} },
      policy: { decision: 'allowed', reason: 'in allowlist' },
    },
  });
  builder.add('tool.result_received', {
    ...wire,
    jsonrpcId: 5,
    direction: 'server_to_client',
    payload: { method: 'tools/call', result: { content: [{ type: 'text', text: '9' }] } },
  });
  builder.add('tool.call_requested', {
    ...wire,
    jsonrpcId: 6,
    direction: 'client_to_server',
    payload: { method: 'tools/call', params: { name: 'quote', arguments: {} }, policy: { decision: 'maybe' } },
  });
  const view = projectTraceView(builder.finish('completed').toJSON());
  const calls = view.timeline.filter((e) => e.kind === 'tool_call') as ToolCallEntry[];

  it('shows a denied call as denied by policy, answered with the proxy’s error, correlated with the report', () => {
    expect(calls[0]).toMatchObject({
      tool: { state: 'observed', value: 'delete' },
      status: 'protocol_error',
      correlation: 'correlated',
      policy: { decision: 'denied', reason: 'not in the allowlist' },
      error: { state: 'observed', value: { code: -32001 } },
    });
  });

  it('keeps an allowed verdict and leaves calls without a (valid) verdict unmarked', () => {
    expect(calls[1]).toMatchObject({ status: 'success', policy: { decision: 'allowed', reason: 'in allowlist' } });
    expect(calls[2]!.policy).toBeUndefined();
    expect('policy' in calls[2]!).toBe(false);
  });

  it('round-trips through JSON unchanged', () => {
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
  });
});
