import { Redactor } from '../../redaction/Redactor';
import { TraceRecorder } from '../../trace/TraceRecorder';
import { AcpUpdateRecorder } from './AcpUpdateRecorder';

function setup(servers = ['example']) {
  const recorder = new TraceRecorder({ executionId: 'exec-1', redactor: new Redactor() });
  let turnId = 'turn-1';
  const updates = new AcpUpdateRecorder(recorder, servers, () => ({ sessionId: 's', turnId }));
  const send = (update: object) => updates.handle({ sessionId: 'agent-s', update });
  return { recorder, updates, send, setTurn: (id: string) => (turnId = id) };
}

describe('AcpUpdateRecorder', () => {
  it('maps chunks, thoughts, usage and other updates, and joins the turn text', () => {
    const { recorder, updates, send } = setup();
    updates.beginTurn();
    send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hmm' } });
    send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'quoted ' } });
    send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'local' }, messageId: 'm1' });
    send({ sessionUpdate: 'usage_update', used: 1200, size: 200000, cost: { amount: 0.01, currency: 'USD' } });
    send({ sessionUpdate: 'plan', entries: [] });
    expect(updates.turnText).toBe('quoted local');
    expect(updates.usageReported).toBe(true);
    const events = recorder.events.map((e) => [e.kind, e.origin, e.turnId]);
    expect(events).toEqual([
      ['reasoning', 'harness_reported', 'turn-1'],
      ['assistant.content', 'harness_reported', 'turn-1'],
      ['assistant.content', 'harness_reported', 'turn-1'],
      ['usage', 'harness_reported', 'turn-1'],
      ['provider.event', 'harness_reported', 'turn-1'],
    ]);
    expect(recorder.events[3]!.payload).toMatchObject({
      totalTokens: 1200,
      cost: 0.01,
      currency: 'USD',
      inputTokens: null,
    });
    expect(recorder.events[4]!.payload).toMatchObject({ kind: 'plan' });
    updates.beginTurn();
    expect(updates.turnText).toBe('');
  });

  it('reports a tool call once it has a title, and its result once the status is final', () => {
    const { recorder, updates, send, setTurn } = setup();
    updates.beginTurn();
    send({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'in_progress' }); // no title yet
    send({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'shipping_quote', rawInput: { weight_kg: 2 } });
    send({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', rawOutput: { content: [] } });
    send({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed' }); // repeated: ignored
    send({ sessionUpdate: 'tool_call', toolCallId: 'c2', title: 'Read file notes.txt', status: 'failed', content: [] });
    setTurn('turn-2');
    updates.beginTurn();
    send({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'example:shipping_quote', rawInput: {} });

    const calls = recorder.events.map((e) => [e.kind, e.server ?? null, e.payload.providerCallId, e.turnId]);
    expect(calls).toEqual([
      ['tool.call_requested', 'example', 'c1', 'turn-1'],
      ['tool.result_received', 'example', 'c1', 'turn-1'],
      ['tool.call_requested', null, 'c2', 'turn-1'],
      ['tool.result_received', null, 'c2', 'turn-1'],
      ['tool.call_requested', 'example', 'c1', 'turn-2'],
    ]);
    expect(recorder.events[0]!.payload.params).toEqual({ name: 'shipping_quote', arguments: { weight_kg: 2 } });
    expect(recorder.events[1]!.payload).toMatchObject({ result: { content: [] }, status: 'completed' });
    expect(recorder.events[3]!.payload).toMatchObject({ result: { content: [], isError: true }, status: 'failed' });
  });
});
