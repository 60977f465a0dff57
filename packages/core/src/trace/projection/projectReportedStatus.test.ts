import type { ToolCallEntry } from '../TraceEntry';
import { TraceEventListBuilder } from '@sf-m3/test-utils/trace';
import { projectTraceView } from './projectTraceView';

/** One reported-only call whose result carries `status` (omitted when undefined). */
function reportedCallStatus(status: string | undefined): string {
  const builder = new TraceEventListBuilder({ runtime: 'acp', servers: [{ name: 'shop' }] });
  const scope = { sessionId: 'session-1', turnId: 'turn-1', origin: 'harness_reported' as const, server: 'shop' };
  builder.add('tool.call_requested', {
    ...scope,
    payload: { method: 'tools/call', params: { name: 'quote', arguments: {} }, providerCallId: 'p-1' },
  });
  builder.add('tool.result_received', {
    ...scope,
    payload: { method: 'tools/call', result: 'ok', providerCallId: 'p-1', ...(status !== undefined && { status }) },
  });
  const view = projectTraceView(builder.finish().toJSON());
  const [call] = view.timeline.filter((e) => e.kind === 'tool_call') as ToolCallEntry[];
  expect(call?.correlation).toBe('reported_only');
  return call!.status;
}

describe('the status of a reported-only tool call, from the agent’s word', () => {
  it('maps success, failure and cancellation words', () => {
    expect(['completed', 'failed', 'denied', 'cancelled'].map(reportedCallStatus)).toEqual([
      'success',
      'tool_error',
      'tool_error',
      'cancelled',
    ]);
  });

  it('counts a result without a status word as a success', () => {
    expect(reportedCallStatus(undefined)).toBe('success');
  });

  it('leaves a call whose last word says neither (in_progress, pending) incomplete', () => {
    expect(['in_progress', 'pending', 'whatever'].map(reportedCallStatus)).toEqual([
      'incomplete',
      'incomplete',
      'incomplete',
    ]);
  });
});
