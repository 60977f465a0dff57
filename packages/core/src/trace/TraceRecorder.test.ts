import { createHash } from 'node:crypto';
import { Redactor } from '../redaction/Redactor';
import type { TraceEvent } from './Event';
import {
  CAPTURE_INCOMPLETE,
  EVIDENCE_BUDGET_EXHAUSTED,
  RAW_EVIDENCE_BUDGET_EXCEEDED,
  TraceRecorder,
} from './TraceRecorder';

const EXEC = 'exec-0123456789abcdef0123456789abcdef';
const TRACE = 'trace-0123456789abcdef0123456789abcdef';

function recorderWith(options: Partial<ConstructorParameters<typeof TraceRecorder>[0]> = {}): {
  recorder: TraceRecorder;
  redactor: Redactor;
  tick: (ms: number) => void;
} {
  let now = 1000;
  const redactor = options.redactor ?? new Redactor(['s3cr3t-canary-value']);
  const recorder = new TraceRecorder({ executionId: EXEC, redactor, clock: () => now, ...options });
  return { recorder, redactor, tick: (ms) => (now += ms) };
}

function created(recorder: TraceRecorder): TraceEvent {
  return recorder.record('execution.created', {
    phase: 'preflight',
    payload: { traceId: TRACE, runtime: 'direct', runId: null, suiteName: null, caseId: null, servers: [] },
  });
}

describe('TraceRecorder numbering and timing', () => {
  it('numbers events 0..n-1 with ids, ISO timestamps and nondecreasing offsets', () => {
    const { recorder, tick } = recorderWith();
    created(recorder);
    tick(5.5);
    recorder.record('transport.connected', { phase: 'startup', payload: { transport: 'stdio', instrumented: 'x' } });
    tick(2);
    const third = recorder.record('mcp.request', {
      direction: 'client_to_server',
      jsonrpcId: 0,
      server: 'srv',
      connectionId: 'conn-1',
      payload: { method: 'initialize', params: {} },
    });
    expect(recorder.events.map((e) => e.sequence)).toEqual([0, 1, 2]);
    expect(recorder.events.map((e) => e.eventId)).toEqual([`evt-${EXEC}-0`, `evt-${EXEC}-1`, `evt-${EXEC}-2`]);
    expect(recorder.events.map((e) => e.offsetMs)).toEqual([0, 5.5, 7.5]);
    expect(Date.parse(third.timestamp) - Date.parse(recorder.events[0]!.timestamp)).toBeGreaterThanOrEqual(7);
    expect(third.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(third).toMatchObject({ direction: 'client_to_server', jsonrpcId: 0, server: 'srv', connectionId: 'conn-1' });
    expect(third.phase).toBe('unknown');
    expect(third.origin).toBe('normalized');
    expect(Object.isFrozen(third)).toBe(true);
  });

  it('never goes back in time even if the clock does', () => {
    const { recorder, tick } = recorderWith();
    created(recorder);
    tick(10);
    recorder.record('diagnostic', { payload: { code: 'a', message: 'a' } });
    tick(-4);
    const late = recorder.record('diagnostic', { payload: { code: 'b', message: 'b' } });
    expect(late.offsetMs).toBe(10);
  });

  it('takes the trace id from execution.created, or fills it in', () => {
    const { recorder } = recorderWith();
    created(recorder);
    expect(recorder.traceId).toBe(TRACE);
    const other = recorderWith().recorder;
    const event = other.record('execution.created', { payload: { runtime: 'direct' } });
    expect(event.payload.traceId).toBe(other.traceId);
    expect(other.traceId).toMatch(/^trace-[0-9a-f]{32}$/);
  });
});

describe('TraceRecorder redaction', () => {
  it('redacts canaries, bearer tokens and sensitive keys in payloads', () => {
    const { recorder } = recorderWith();
    created(recorder);
    const event = recorder.record('mcp.request', {
      payload: {
        method: 'tools/call',
        params: {
          name: 'echo',
          arguments: { text: 'my s3cr3t-canary-value here', api_key: 'abc123', nested: ['Bearer xyz.abc'] },
        },
        skipped: undefined,
        notANumber: Number.NaN,
      },
    });
    const text = JSON.stringify(event.payload);
    expect(text).not.toContain('s3cr3t-canary-value');
    expect(text).not.toContain('abc123');
    expect(text).not.toContain('xyz.abc');
    expect(event.payload).toEqual({
      method: 'tools/call',
      params: {
        name: 'echo',
        arguments: { text: 'my [REDACTED] here', api_key: '[REDACTED]', nested: ['Bearer [REDACTED]'] },
      },
      notANumber: null,
    });
  });

  it('redacts raw frames before storing them and addresses them by sha256', () => {
    const { recorder } = recorderWith();
    created(recorder);
    const frame = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x', params: { v: 's3cr3t-canary-value' } });
    const event = recorder.record('raw.frame', { direction: 'client_to_server', payload: {}, raw: frame });
    const expectedBytes = Buffer.from(frame.replace('s3cr3t-canary-value', '[REDACTED]'));
    const sha = createHash('sha256').update(expectedBytes).digest('hex');
    expect(event.rawEvidence).toEqual({
      evidenceId: `re:${sha}`,
      sha256: sha,
      sizeBytes: expectedBytes.length,
      mediaType: 'application/json',
      originalSizeBytes: expectedBytes.length,
      truncated: false,
      redacted: true,
    });
    expect(event.payload).toMatchObject({
      source: 'mcp',
      mediaType: 'application/json',
      preview: expectedBytes.toString(),
      previewTruncated: false,
      sizeBytes: expectedBytes.length,
      truncated: false,
      redacted: true,
    });
    expect(recorder.evidence).toHaveLength(1);
    expect(recorder.evidence[0]!.bytes.equals(expectedBytes)).toBe(true);
    // The same bytes twice are stored once.
    recorder.record('raw.frame', { payload: {}, raw: frame });
    expect(recorder.evidence).toHaveLength(1);
  });

  it('puts process stderr into payload.stderr as a StderrCapture', () => {
    const { recorder } = recorderWith();
    created(recorder);
    const event = recorder.record('process.exited', {
      payload: { executable: 'node', pid: 42, exitCode: 1, signal: null },
      raw: 'boom: token s3cr3t-canary-value\n',
      rawMediaType: 'text/plain',
      rawSource: 'process_stderr',
      rawOriginalSizeBytes: 100,
    });
    const stderr = event.payload.stderr as Record<string, unknown>;
    expect(stderr.preview).toBe('boom: token [REDACTED]\n');
    expect(stderr.redacted).toBe(true);
    expect(stderr.truncated).toBe(true);
    expect(stderr.sizeBytes).toBe(100 - 32 + 23);
    expect(stderr.evidenceRef).toEqual(event.rawEvidence);
  });
});

describe('TraceRecorder raw bounding', () => {
  it('bounds the preview, the frame and the execution budget (payloads and previews count too)', () => {
    const { recorder } = recorderWith({ rawLimits: { previewBytes: 8, frameBytes: 16, executionBytes: 60 } });
    created(recorder);
    // Each frame costs its payload ('{}', 2 bytes), the bytes kept and the preview.
    const first = recorder.record('raw.frame', { payload: {}, raw: 'a'.repeat(30), rawMediaType: 'text/plain' });
    expect(first.payload).toMatchObject({
      preview: 'aaaaaaaa',
      previewTruncated: true,
      sizeBytes: 30,
      truncated: true,
    });
    expect(first.rawEvidence).toMatchObject({ sizeBytes: 16, originalSizeBytes: 30, truncated: true });
    const second = recorder.record('raw.frame', { payload: {}, raw: 'b'.repeat(16), rawMediaType: 'text/plain' });
    expect(second.rawEvidence?.sizeBytes).toBe(16);
    expect(recorder.limitations).toEqual([CAPTURE_INCOMPLETE]);
    // 2 + 26 + 26 spent, 6 bytes left: the frame is cut by the budget, not the frame limit.
    const third = recorder.record('raw.frame', { payload: {}, raw: 'c'.repeat(12), rawMediaType: 'text/plain' });
    expect(third.rawEvidence?.sizeBytes).toBe(6);
    expect(recorder.limitations).toEqual([CAPTURE_INCOMPLETE, RAW_EVIDENCE_BUDGET_EXCEEDED]);
    // Nothing left: a raw frame is dropped (counted, not stored).
    recorder.record('raw.frame', { payload: {}, raw: 'd'.repeat(4), rawMediaType: 'text/plain' });
    expect(recorder.events.map((e) => e.kind)).toEqual(['execution.created', 'raw.frame', 'raw.frame', 'raw.frame']);
    expect(recorder.limitations).toEqual([CAPTURE_INCOMPLETE, RAW_EVIDENCE_BUDGET_EXCEEDED, EVIDENCE_BUDGET_EXHAUSTED]);
    expect(recorder.evidence.reduce((n, b) => n + b.bytes.length, 0)).toBe(38);
  });

  it('never splits a UTF-8 character when bounding', () => {
    const { recorder } = recorderWith({ rawLimits: { previewBytes: 5, frameBytes: 7 } });
    created(recorder);
    const event = recorder.record('raw.frame', { payload: {}, raw: 'ééééé', rawMediaType: 'text/plain' });
    expect(event.payload.preview).toBe('éé');
    expect(recorder.evidence[0]!.bytes.toString('utf8')).toBe('ééé');
  });

  it('previews bytes that are not UTF-8 as base64', () => {
    const { recorder } = recorderWith();
    created(recorder);
    const event = recorder.record('raw.frame', {
      payload: {},
      raw: Buffer.from([0xff, 0xfe, 0x00]),
      rawMediaType: 'application/octet-stream',
    });
    expect(event.payload.preview).toBe('base64://4A');
  });
});

describe('TraceRecorder finish, snapshot and subscribers', () => {
  it('finishes with execution.finished and returns a partial, finalized trace', () => {
    const { recorder } = recorderWith();
    const seen: string[] = [];
    const unsubscribe = recorder.subscribe((e) => seen.push(e.kind));
    created(recorder);
    recorder.record('mcp.request', { payload: { method: 'ping', params: null } });
    const live = recorder.snapshot();
    expect(live.finalized).toBe(false);
    expect(live.events).toHaveLength(2);
    recorder.addLimitation('cleanup_failed');
    const trace = recorder.finish('failed', {
      code: 'transport_error',
      message: 'broke near s3cr3t-canary-value',
      details: { a: 1 },
    });
    expect(seen).toEqual(['execution.created', 'mcp.request', 'execution.finished']);
    unsubscribe();
    expect(trace.finalized).toBe(true);
    expect(trace.traceId).toBe(TRACE);
    expect(trace.completeness).toBe('partial');
    expect(trace.limitations).toEqual(['capture_incomplete', 'cleanup_failed']);
    const last = trace.events.at(-1)!;
    expect(last.kind).toBe('execution.finished');
    expect(last.sequence).toBe(2);
    expect(last.payload).toEqual({
      outcome: 'failed',
      completeness: 'partial',
      limitations: ['capture_incomplete', 'cleanup_failed'],
      error: { code: 'transport_error', message: 'broke near [REDACTED]', details: { a: 1 } },
    });
    expect(recorder.finish('completed')).toBe(trace);
    expect(recorder.snapshot()).toBe(trace);
    expect(() => recorder.record('diagnostic', { payload: {} })).toThrow(/finished/);
  });

  it('keeps recording when a subscriber throws, and stops calling unsubscribed listeners', () => {
    const { recorder } = recorderWith();
    const calls: number[] = [];
    recorder.subscribe(() => {
      throw new Error('listener bug');
    });
    const off = recorder.subscribe((e) => calls.push(e.sequence));
    created(recorder);
    off();
    recorder.record('diagnostic', { payload: { code: 'x', message: 'y' } });
    expect(calls).toEqual([0]);
    expect(recorder.events).toHaveLength(2);
  });
});
