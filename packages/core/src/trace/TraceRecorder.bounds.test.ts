// What a misbehaving peer can make a trace hold (contract §22): repeated diagnostics are summarized,
// and event payloads count against the execution's evidence budget.
import { Redactor } from '../redaction/Redactor';
import type { TraceEvent } from './Event';
import { DIAGNOSTICS_SUMMARIZED, EVIDENCE_BUDGET_EXHAUSTED, TraceRecorder } from './TraceRecorder';

const EXEC = 'exec-0123456789abcdef0123456789abcdef';

function recorderWith(executionBytes?: number): TraceRecorder {
  const recorder = new TraceRecorder({
    executionId: EXEC,
    redactor: new Redactor(['s3cr3t-canary-value']),
    ...(executionBytes !== undefined && { rawLimits: { executionBytes } }),
  });
  recorder.record('execution.created', { phase: 'preflight', payload: { runtime: 'direct', servers: [] } });
  return recorder;
}

function nonJsonLine(recorder: TraceRecorder, connectionId: string, text: string): void {
  recorder.recordRepeated({
    key: `${connectionId}|non_json_output`,
    what: 'non-JSON lines on stdout',
    fields: {
      phase: 'unknown',
      direction: 'server_to_client',
      server: 'srv',
      connectionId,
      payload: { code: 'non_json_output', message: 'the server wrote a line that is not JSON-RPC' },
    },
    sample: { text, bytes: Buffer.byteLength(text) + 1 },
  });
}

const diagnostics = (events: readonly TraceEvent[]): TraceEvent[] => events.filter((e) => e.kind === 'diagnostic');

describe('TraceRecorder repeated diagnostics', () => {
  it('records the first 20 lines one by one and summarizes the other 199 980 in one diagnostic at finish', () => {
    const recorder = recorderWith();
    for (let i = 0; i < 200_000; i += 1) nonJsonLine(recorder, 'conn-1', `log ${i}: s3cr3t-canary-value`);
    expect(recorder.events).toHaveLength(21);
    expect(recorder.limitations).toContain(DIAGNOSTICS_SUMMARIZED);
    const trace = recorder.finish('failed');
    const found = diagnostics(trace.events);
    expect(found).toHaveLength(21);
    expect(found[0]!.payload).toMatchObject({
      code: 'non_json_output',
      line: 'log 0: [REDACTED]',
      lineBytes: 27,
    });
    const summary = found[20]!;
    expect(summary.connectionId).toBe('conn-1');
    expect(summary.payload).toMatchObject({
      code: 'non_json_output',
      summarized: true,
      count: 200_000,
      recordedCount: 20,
      summarizedCount: 199_980,
      firstLine: 'log 0: [REDACTED]',
      lastLine: 'log 199999: [REDACTED]',
    });
    expect(summary.payload.message).toContain('200000 non-JSON lines on stdout');
    expect(JSON.stringify(trace.events)).not.toContain('s3cr3t-canary-value');
    expect(trace.limitations).toContain(DIAGNOSTICS_SUMMARIZED);
  });

  it('cuts a quoted line to 200 characters and counts its bytes', () => {
    const recorder = recorderWith();
    nonJsonLine(recorder, 'conn-1', 'x'.repeat(5000));
    const [event] = diagnostics(recorder.events);
    expect((event!.payload.line as string).length).toBe(201);
    expect(event!.payload.lineBytes).toBe(5001);
  });

  it('flushRepeated records the summary of the keys it names only, and a later line starts a new count', () => {
    const recorder = recorderWith();
    for (let i = 0; i < 25; i += 1) nonJsonLine(recorder, 'conn-1', `a${i}`);
    for (let i = 0; i < 25; i += 1) nonJsonLine(recorder, 'conn-2', `b${i}`);
    recorder.flushRepeated((key) => key.startsWith('conn-1|'));
    const summaries = () => diagnostics(recorder.events).filter((e) => e.payload.summarized === true);
    expect(summaries().map((e) => [e.connectionId, e.payload.count])).toEqual([['conn-1', 25]]);
    nonJsonLine(recorder, 'conn-1', 'again');
    expect(diagnostics(recorder.events).at(-1)!.payload.line).toBe('again');
    const trace = recorder.finish('failed');
    expect(
      trace.events.filter((e) => e.payload.summarized === true).map((e) => [e.connectionId, e.payload.count]),
    ).toEqual([
      ['conn-1', 25],
      ['conn-2', 25],
    ]);
  });

  it('adds no summary and no limitation when nothing repeated past the limit', () => {
    const recorder = recorderWith();
    for (let i = 0; i < 20; i += 1) nonJsonLine(recorder, 'conn-1', `line ${i}`);
    const trace = recorder.finish('completed');
    expect(diagnostics(trace.events)).toHaveLength(20);
    expect(trace.limitations).not.toContain(DIAGNOSTICS_SUMMARIZED);
  });
});

describe('TraceRecorder evidence budget over events', () => {
  const notification = (recorder: TraceRecorder, i: number): void => {
    recorder.record('mcp.notification', {
      direction: 'server_to_client',
      payload: { method: 'notifications/message', params: { level: 'info', data: `message ${i} ${'y'.repeat(80)}` } },
    });
  };

  it('counts payloads: past the budget notifications are dropped and a tool result is kept without its payload', () => {
    const recorder = recorderWith(10_000);
    for (let i = 0; i < 1_000; i += 1) notification(recorder, i);
    const kept = recorder.events.filter((e) => e.kind === 'mcp.notification').length;
    expect(kept).toBeGreaterThan(50);
    expect(kept).toBeLessThan(100);
    expect(recorder.limitations).toContain(EVIDENCE_BUDGET_EXHAUSTED);
    recorder.record('tool.result_received', {
      direction: 'server_to_client',
      jsonrpcId: 3,
      payload: { method: 'tools/call', result: { content: [{ type: 'text', text: 'z'.repeat(20_000) }] } },
    });
    const result = recorder.events.at(-1)!;
    expect(result.kind).toBe('tool.result_received');
    expect(result.jsonrpcId).toBe(3);
    expect(result.payload).toEqual({ method: 'tools/call', result: {}, payloadDropped: true, payloadBytes: 20_072 });

    const trace = recorder.finish('completed');
    expect(trace.events.map((e) => e.sequence)).toEqual(trace.events.map((_, i) => i));
    const summary = trace.events.at(-2)!;
    expect(summary.kind).toBe('diagnostic');
    expect(summary.payload).toMatchObject({
      code: EVIDENCE_BUDGET_EXHAUSTED,
      budgetBytes: 10_000,
      droppedEvents: 1_000 - kept,
      droppedByKind: { 'mcp.notification': 1_000 - kept },
      reducedEvents: 1,
    });
    expect(trace.events.at(-1)!.kind).toBe('execution.finished');
    expect(trace.events.at(-1)!.payload.limitations).toContain(EVIDENCE_BUDGET_EXHAUSTED);
    const stored = trace.events.reduce((n, e) => n + JSON.stringify(e.payload).length, 0);
    expect(stored).toBeLessThan(10_000 + 2_000);
  });

  it('a call whose result was kept without its payload reads back as truncated, not as an empty result', () => {
    const recorder = recorderWith(2_000);
    recorder.record('tool.call_requested', {
      direction: 'client_to_server',
      jsonrpcId: 1,
      server: 'srv',
      phase: 'mcp_call',
      payload: { method: 'tools/call', params: { name: 'huge', arguments: {} } },
    });
    recorder.record('tool.result_received', {
      direction: 'server_to_client',
      jsonrpcId: 1,
      server: 'srv',
      phase: 'mcp_call',
      payload: {
        method: 'tools/call',
        result: { content: [{ type: 'text', text: 'z'.repeat(5_000) }], isError: true },
      },
    });
    const [call] = recorder.finish('completed').view().toolCalls;
    expect(call!.tool).toMatchObject({ state: 'observed', value: 'huge' });
    expect(call!.result).toMatchObject({ state: 'truncated', reason: 'evidence_truncated', value: null });
    expect(call!.status).toBe('tool_error');
  });

  it('leaves a trace inside its budget untouched', () => {
    const recorder = recorderWith(1_000_000);
    for (let i = 0; i < 100; i += 1) notification(recorder, i);
    const trace = recorder.finish('completed');
    expect(trace.events).toHaveLength(102);
    expect(trace.limitations).not.toContain(EVIDENCE_BUDGET_EXHAUSTED);
  });
});
