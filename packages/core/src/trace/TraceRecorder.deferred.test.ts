import { Redactor } from '../redaction/Redactor';
import type { EventKind } from './Event';
import { TraceRecorder, type RecordFields } from './TraceRecorder';

const EXEC = 'exec-0123456789abcdef0123456789abcdef';

function recorderAt(): { recorder: TraceRecorder; tick: (ms: number) => void } {
  let now = 1000;
  const recorder = new TraceRecorder({
    executionId: EXEC,
    redactor: new Redactor(['s3cr3t-canary-value']),
    clock: () => now,
    traceId: 'trace-0123456789abcdef0123456789abcdef',
  });
  recorder.record('execution.created', {
    phase: 'preflight',
    payload: { runtime: 'direct', runId: null, suiteName: null, caseId: null, servers: [] },
  });
  return { recorder, tick: (ms) => (now += ms) };
}

/** A message event as ObservedTransport hands it over: pre-redacted payload and frame. */
function messageFields(recorder: TraceRecorder, id: number, text: string): RecordFields {
  const safe = recorder.sanitize({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });
  const frame = JSON.stringify(safe);
  return {
    origin: 'normalized',
    server: 'srv',
    connectionId: 'conn-1',
    direction: 'server_to_client',
    jsonrpcId: id,
    phase: 'mcp_call',
    payload: { method: 'tools/call', result: (safe as { result: object }).result },
    preRedacted: true,
    raw: frame,
    rawSource: 'mcp',
    rawRedacted: frame.includes('[REDACTED]'),
  };
}

const script: Array<[EventKind, (r: TraceRecorder) => RecordFields, 'now' | 'later']> = [
  ['transport.connected', () => ({ phase: 'startup', payload: { transport: 'stdio' } }), 'now'],
  ['tool.result_received', (r) => messageFields(r, 1, 'one'), 'later'],
  ['tool.result_received', (r) => messageFields(r, 2, 'has s3cr3t-canary-value in it'), 'later'],
  ['diagnostic', () => ({ phase: 'unknown', payload: { code: 'x', message: 'between' } }), 'now'],
  ['tool.result_received', (r) => messageFields(r, 1, 'one'), 'later'],
];

function play(mode: 'eager' | 'deferred'): TraceRecorder {
  const { recorder, tick } = recorderAt();
  for (const [kind, fields, when] of script) {
    tick(1.5);
    if (mode === 'deferred' && when === 'later') recorder.recordLater(kind, fields(recorder));
    else recorder.record(kind, fields(recorder));
  }
  return recorder;
}

describe('TraceRecorder.recordLater', () => {
  it('gives the same finalized trace and evidence as record, in the same order', () => {
    const eager = play('eager');
    const deferred = play('deferred');
    const eagerTrace = eager.finish('completed').toJSON();
    const deferredTrace = deferred.finish('completed').toJSON();
    // Wall-clock timestamps start from each recorder's creation; everything else must match.
    const withoutWallClock = (trace: typeof eagerTrace) => ({
      ...trace,
      events: trace.events.map(({ timestamp: _timestamp, ...rest }) => rest),
    });
    expect(withoutWallClock(deferredTrace)).toEqual(withoutWallClock(eagerTrace));
    expect(deferredTrace.events.map((e) => e.kind)).toEqual([
      'execution.created',
      ...script.map(([kind]) => kind),
      'execution.finished',
    ]);
    expect(deferred.evidence).toEqual(eager.evidence);
    expect(JSON.stringify(deferredTrace)).not.toContain('s3cr3t-canary-value');
  });

  it('builds pending events as soon as the trace is read, and on the next idle turn of the loop', async () => {
    const { recorder } = recorderAt();
    recorder.recordLater('tool.result_received', messageFields(recorder, 1, 'one'));
    expect(recorder.events).toHaveLength(2);
    recorder.recordLater('tool.result_received', messageFields(recorder, 2, 'two'));
    expect(recorder.snapshot().events).toHaveLength(3);
    recorder.recordLater('tool.result_received', messageFields(recorder, 3, 'three'));
    await new Promise((resolve) => setImmediate(resolve));
    const seen: number[] = [];
    recorder.subscribe((e) => seen.push(e.sequence));
    expect(seen).toEqual([]);
    expect(recorder.events.map((e) => e.jsonrpcId)).toEqual([undefined, 1, 2, 3]);
  });

  it('hands events to subscribers at once', () => {
    const { recorder } = recorderAt();
    const seen: Array<string | number | undefined> = [];
    recorder.subscribe((e) => seen.push(e.jsonrpcId));
    recorder.recordLater('tool.result_received', messageFields(recorder, 7, 'now'));
    expect(seen).toEqual([7]);
  });

  it('records the fallback in place of an event that cannot be built', () => {
    const { recorder } = recorderAt();
    const broken = { ...messageFields(recorder, 1, 'x'), raw: 42 as unknown as string };
    recorder.recordLater('tool.result_received', broken, {
      kind: 'diagnostic',
      fields: { phase: 'unknown', payload: { code: 'capture_failed', message: 'could not be recorded' } },
    });
    recorder.record('diagnostic', { phase: 'unknown', payload: { code: 'after', message: 'after' } });
    expect(recorder.events.map((e) => [e.kind, e.payload.code])).toEqual([
      ['execution.created', undefined],
      ['diagnostic', 'capture_failed'],
      ['diagnostic', 'after'],
    ]);
  });

  it('calls a producer when the event is built, in order, with the time it was accepted', () => {
    const { recorder, tick } = recorderAt();
    const made: number[] = [];
    const producer = (id: number) => () => {
      made.push(id);
      return { kind: 'tool.result_received' as const, fields: messageFields(recorder, id, `text ${id}`) };
    };
    tick(5);
    recorder.recordLater(producer(1));
    tick(5);
    recorder.recordLater(producer(2));
    expect(made).toEqual([]);
    const events = recorder.events;
    expect(made).toEqual([1, 2]);
    expect(events.map((e) => [e.jsonrpcId, e.offsetMs])).toEqual([
      [undefined, 0],
      [1, 5],
      [2, 10],
    ]);
    expect(events[1]!.rawEvidence).toBeDefined();
  });

  it('records the fallback in place of a producer that throws, and refuses producers after finish', () => {
    const { recorder } = recorderAt();
    recorder.recordLater(
      () => {
        throw new Error('s3cr3t-canary-value');
      },
      { kind: 'diagnostic', fields: { phase: 'unknown', payload: { code: 'capture_failed', message: 'x' } } },
    );
    const trace = recorder.finish('completed');
    expect(trace.events.map((e) => [e.kind, e.payload.code])).toEqual([
      ['execution.created', undefined],
      ['diagnostic', 'capture_failed'],
      ['execution.finished', undefined],
    ]);
    expect(JSON.stringify(trace)).not.toContain('s3cr3t-canary-value');
    expect(() => recorder.recordLater(() => ({ kind: 'diagnostic', fields: { payload: {} } }))).toThrow(
      /cannot record a deferred event: the trace of exec-.* is finished/,
    );
  });

  it('refuses events after finish', () => {
    const { recorder } = recorderAt();
    recorder.recordLater('tool.result_received', messageFields(recorder, 1, 'one'));
    const trace = recorder.finish('completed');
    expect(trace.events.map((e) => e.kind)).toEqual([
      'execution.created',
      'tool.result_received',
      'execution.finished',
    ]);
    expect(() => recorder.recordLater('tool.result_received', messageFields(recorder, 2, 'two'))).toThrow(
      /trace of exec-.* is finished/,
    );
  });
});
