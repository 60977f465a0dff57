import { Redactor } from '../../redaction/Redactor';
import type { ProcessEntry, RawMessageEntry, ToolCallEntry } from '../TraceEntry';
import { TraceRecorder } from '../TraceRecorder';

/** Events recorded through the real `TraceRecorder`, as the direct client and transports emit them. */
function recordedTrace() {
  let now = 0;
  const recorder = new TraceRecorder({
    executionId: 'exec-0123456789abcdef0123456789abcdef',
    redactor: new Redactor(['hunter2-canary']),
    clock: () => now,
  });
  const on = { server: 'srv', connectionId: 'conn-1' };
  recorder.record('execution.created', {
    phase: 'startup',
    direction: 'internal',
    payload: {
      traceId: 'trace-1',
      runtime: 'direct',
      runId: null,
      suiteName: null,
      caseId: null,
      servers: [{ name: 'srv' }],
    },
  });
  recorder.record('process.started', { ...on, phase: 'startup', payload: { executable: 'node', pid: 4242 } });
  recorder.record('transport.connected', {
    ...on,
    phase: 'startup',
    payload: { transport: 'stdio', instrumented: 'sdk-transport-wrapper' },
  });
  const request = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'login', arguments: { password: 'hunter2-canary' } },
  };
  recorder.record('mcp.request', {
    ...on,
    direction: 'client_to_server',
    jsonrpcId: 1,
    payload: { method: 'tools/call', params: request.params },
    raw: JSON.stringify(request),
  });
  now += 12;
  const response = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'welcome' }] } };
  recorder.record('mcp.response', {
    ...on,
    direction: 'server_to_client',
    jsonrpcId: 1,
    payload: { method: 'tools/call', result: response.result },
    raw: JSON.stringify(response),
  });
  now += 3;
  recorder.record('process.exited', {
    ...on,
    phase: 'cleanup',
    payload: { executable: 'node', pid: 4242, exitCode: 1, signal: null, stderr: null },
    raw: 'boom: hunter2-canary\n',
    rawMediaType: 'text/plain; charset=utf-8',
    rawSource: 'process_stderr',
  });
  return recorder.finish('completed');
}

describe('projecting a trace recorded by TraceRecorder', () => {
  const trace = recordedTrace();
  const view = trace.view();

  it('projects a tools/call sent as mcp.request into a tool-call entry with latency', () => {
    const [call] = view.toolCalls as readonly ToolCallEntry[];
    expect(call).toMatchObject({
      server: 'srv',
      status: 'success',
      latencyMs: 12,
      tool: { state: 'observed', value: 'login' },
      arguments: { state: 'observed', value: { password: '[REDACTED]' } },
    });
  });

  it('lists the frames the message events carried as raw-message entries with their own ids', () => {
    const raw = view.rawMessages as readonly RawMessageEntry[];
    expect(raw.map((r) => [r.source, r.direction, r.sequenceStart])).toEqual([
      ['mcp', 'client_to_server', 3],
      ['mcp', 'server_to_client', 4],
      ['process_stderr', 'internal', 5],
    ]);
    expect(raw[0]!.preview.value).toContain('[REDACTED]');
    expect(raw[0]!.preview.value).not.toContain('hunter2');
    expect(raw[0]!.evidenceRef).toEqual(trace.events[3]!.rawEvidence);
    expect(raw[2]!.mediaType).toBe('text/plain; charset=utf-8');
    expect(new Set(view.timeline.map((e) => e.entryId)).size).toBe(view.timeline.length);
  });

  it('keeps the redacted stderr in the process entry and marks a non-zero exit failed', () => {
    const [process] = view.processes as readonly ProcessEntry[];
    expect(process).toMatchObject({
      status: 'failed',
      exitCode: { state: 'observed', value: 1 },
      signal: { state: 'not_emitted' },
    });
    expect(process!.stderr.state).toBe('observed');
    expect(process!.stderr.value!.preview).toBe('boom: [REDACTED]\n');
  });

  it('says not_emitted when the child wrote no stderr', () => {
    const recorder = new TraceRecorder({ executionId: 'exec-1', redactor: new Redactor() });
    recorder.record('execution.created', { payload: { traceId: 't', runtime: 'direct', servers: [] } });
    recorder.record('process.started', { payload: { executable: 'node', pid: 1 } });
    recorder.record('process.exited', {
      payload: { executable: 'node', pid: 1, exitCode: 0, signal: null, stderr: null },
    });
    const [process] = recorder.finish('completed').view().processes;
    expect(process).toMatchObject({
      status: 'completed',
      stderr: { state: 'not_emitted', reason: 'provider_did_not_emit' },
    });
  });
});
