import { Redactor } from '../../redaction/Redactor';
import { TraceRecorder } from '../../trace/TraceRecorder';
import { NativeEventRecorder } from '../native/NativeEventRecorder';
import { OpencodeMessageRecorder } from './OpencodeMessageRecorder';

function setup() {
  const recorder = new TraceRecorder({ executionId: 'exec-1', redactor: new Redactor() });
  const events = new NativeEventRecorder(recorder, () => ({ sessionId: 's1', turnId: 't1' }), 'conn-1');
  const messages = new OpencodeMessageRecorder(events, [
    { server: 'shop', tools: 'all' },
    { server: 'shop.eu', tools: ['quote.v2'] },
  ]);
  const kinds = () => recorder.events.map((e) => e.kind);
  return { recorder, messages, kinds };
}

const tool = (id: string, name: string, state: Record<string, unknown>) => ({
  id,
  type: 'tool',
  callID: `call_${id}`,
  tool: name,
  state,
});
const assistant = (id: string, parts: unknown[], extra: Record<string, unknown> = {}) => ({
  info: { id, role: 'assistant', time: { created: 1, completed: 2 }, ...extra },
  parts,
});

describe('OpencodeMessageRecorder', () => {
  it('records a running tool part once, its result once, and a message when it is complete', () => {
    const { recorder, messages, kinds } = setup();
    messages.beginTurn();
    const running = tool('p1', 'shop_eu_quote_v2', { status: 'running', input: { kg: 2 } });
    messages.record([{ info: { id: 'm1', role: 'assistant', time: { created: 1 } }, parts: [running] }], false);
    messages.record([{ info: { id: 'm1', role: 'assistant', time: { created: 1 } }, parts: [running] }], false);
    expect(kinds()).toEqual(['tool.call_requested']);
    expect(recorder.events[0]).toMatchObject({
      server: 'shop.eu',
      payload: { params: { name: 'quote.v2', arguments: { kg: 2 } }, providerCallId: 'call_p1' },
    });
    const done = tool('p1', 'shop_eu_quote_v2', { status: 'completed', input: { kg: 2 }, output: '{"amount":9}' });
    const parts = [
      { type: 'reasoning', text: '' },
      { type: 'text', text: 'Checking.' },
      done,
      { type: 'text', text: 'Done.' },
    ];
    const history = [
      { info: { id: 'u1', role: 'user' }, parts: [] },
      assistant('m1', parts, { finish: 'stop', tokens: { input: 10, output: 5, reasoning: 1, total: 16 }, cost: 0.5 }),
    ];
    messages.record(history, false);
    messages.record(history, true);
    expect(kinds()).toEqual([
      'tool.call_requested',
      'reasoning',
      'assistant.content',
      'tool.result_received',
      'assistant.content',
      'usage',
    ]);
    expect(recorder.events[1]!.payload).toEqual({ visibility: 'provider_hidden' });
    expect(recorder.events[3]!.payload).toMatchObject({
      result: '{"amount":9}',
      status: 'completed',
      providerCallId: 'call_p1',
    });
    expect(messages.turnFacts()).toEqual({ text: 'Checking.Done.', finish: 'stop', error: null, messages: 1 });
  });

  it('sums usage over the session, records nothing for messages without tokens or cost, reports errors', () => {
    const { recorder, messages } = setup();
    messages.beginTurn();
    messages.record([assistant('m1', [{ type: 'text', text: 'a' }], { tokens: { input: 3, output: 1 } })], false);
    messages.beginTurn();
    messages.record(
      [
        assistant('m1', [{ type: 'text', text: 'a' }], { tokens: { input: 3, output: 1 } }),
        assistant('m2', [{ type: 'text', text: 'b' }], { tokens: { input: 4, output: 2 }, cost: 0.25 }),
        assistant('m3', [tool('p9', 'bash', { status: 'error', input: {}, error: 'denied' })], {
          error: { name: 'MessageAbortedError', data: { message: 'Aborted' } },
        }),
      ],
      false,
    );
    const usage = recorder.events.filter((e) => e.kind === 'usage').map((e) => e.payload);
    expect(usage).toEqual([
      { inputTokens: 3, outputTokens: 1, totalTokens: null, reasoningTokens: 0, cost: null, currency: null },
      { inputTokens: 7, outputTokens: 3, totalTokens: null, reasoningTokens: 0, cost: 0.25, currency: null },
    ]);
    const builtin = recorder.events.find((e) => e.kind === 'tool.call_requested');
    expect(builtin?.server).toBeUndefined();
    expect(builtin?.payload).toMatchObject({ params: { name: 'bash' } });
    expect(messages.turnFacts()).toEqual({
      text: 'b',
      finish: null,
      error: { name: 'MessageAbortedError', message: 'Aborted' },
      messages: 2,
    });
  });
});
