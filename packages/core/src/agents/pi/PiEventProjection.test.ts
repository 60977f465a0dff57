import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redactor } from '../../redaction/Redactor';
import { TraceRecorder } from '../../trace/TraceRecorder';
import { NativeEventRecorder } from '../native/NativeEventRecorder';
import { PiEventProjection } from './PiEventProjection';

/** Frames recorded from Pi 0.73.1 (one MCP tool call through the kit's extension, then an answer). */
const SAMPLE = readFileSync(join(__dirname, '__fixtures__', 'pi-rpc-0.73.1.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const FROM_PI = SAMPLE.filter((f) => f.type !== 'get_state' && f.type !== 'prompt');

function project(frames: readonly Record<string, unknown>[]) {
  const recorder = new TraceRecorder({ executionId: 'exec-1', redactor: new Redactor() });
  const projection = new PiEventProjection(
    new NativeEventRecorder(recorder, () => ({ sessionId: 's1', turnId: 't1' }), 'conn-1'),
    ['example'],
  );
  projection.beginTurn();
  for (const frame of frames) projection.handle(frame);
  return { projection, events: recorder.events };
}

describe("Pi's recorded RPC frames in the trace", () => {
  it('records the extension status, the reported call and result, whole messages and cumulative usage', () => {
    const { projection, events } = project(FROM_PI);
    expect(projection.status).toMatchObject({ piVersion: '0.73.1', errors: [] });
    // The tool-call message has no text, so it adds usage only; the answer is one whole message.
    expect(events.map((e) => e.kind)).toEqual([
      'usage',
      'tool.call_requested',
      'tool.result_received',
      'assistant.content',
      'usage',
    ]);
    const requested = events.find((e) => e.kind === 'tool.call_requested')!;
    expect(requested.server).toBe('example');
    expect(requested.payload).toMatchObject({
      params: { name: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } },
      providerCallId: 'call_1_1',
    });
    const result = events.find((e) => e.kind === 'tool.result_received')!;
    expect(result.payload).toMatchObject({
      status: 'completed',
      result: { structuredContent: { amount: 9, currency: 'USD' }, isError: false },
    });
    const usage = events.filter((e) => e.kind === 'usage').map((e) => e.payload);
    expect(usage.at(-1)).toEqual({
      inputTokens: 20,
      outputTokens: 10,
      totalTokens: 30,
      reasoningTokens: null,
      cost: 0,
      currency: 'USD',
    });
    expect(projection.lastMessage).toEqual({
      text: 'Result: {"amount":9,"currency":"USD"}',
      stopReason: 'stop',
      errorMessage: null,
    });
  });

  it('keeps the text streamed so far for a turn that breaks off, and thinking as reasoning', () => {
    const streaming = FROM_PI.filter((f) => f.type === 'message_update').at(-1)!;
    const { projection } = project([streaming]);
    expect(projection.partialText).toBe('Result: {"amount":9,"currency":"USD"}');
    const thinking = {
      type: 'message_end',
      message: { role: 'assistant', content: [{ type: 'thinking', thinking: '', redacted: true }], stopReason: 'stop' },
    };
    const { events } = project([thinking]);
    expect(events.filter((e) => e.kind === 'reasoning').map((e) => e.payload)).toEqual([{ visibility: 'encrypted' }]);
  });
});
