// Real captures (the proxy script in front of the NDJSON fixture server) turned into trace events.
import { rpc, startProxy, stopAllProxies } from '../../proxy/captureProxy.testkit';
import type { CaptureRecord } from '../../proxy/CaptureFile';
import { Redactor } from '../../redaction/Redactor';
import { TraceRecorder } from '../../trace/TraceRecorder';
import { recordCaptureRecords } from './recordCaptureRecords';
import { WireEventWriter } from './WireEventWriter';

afterEach(stopAllProxies);

const SECRET = 'fixture-secret-93c1d2';

function record(records: readonly CaptureRecord[]) {
  const redactor = new Redactor([SECRET]);
  const recorder = new TraceRecorder({ executionId: 'exec-0123456789abcdef0123456789abcdef', redactor });
  recorder.record('execution.created', { payload: { runtime: 'acp', servers: [{ name: 'fixture' }] } });
  const writer = new WireEventWriter({
    recorder,
    server: 'fixture',
    connectionId: 'conn-1',
    scope: () => ({ sessionId: 's1', turnId: 't1' }),
  });
  const pids = recordCaptureRecords(writer, records, { executable: 'node' });
  const trace = recorder.finish('completed');
  return { pids, trace, events: trace.events.slice(1, -1) };
}

describe('recordCaptureRecords', () => {
  test('batches, policy verdicts, proxy answers, non-JSON lines and a server dying mid-call', async () => {
    const proxy = await startProxy({
      tools: ['fixture:ok'],
      canaries: [SECRET],
      fixtureEnv: { FIXTURE_SECRET: SECRET },
    });
    proxy.child.stdin.write('hello, not json\n');
    await proxy.waitForLines(1);
    const call = (id: number, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name } });
    proxy.child.stdin.write(
      `${JSON.stringify([call(1, 'ok'), call(2, 'bad'), { jsonrpc: '2.0', id: 3, method: 'echo' }])}\n`,
    );
    await proxy.waitForLines(3);
    proxy.child.stdin.write(rpc(4, 'die'));
    await proxy.exited;
    const { pids, trace, events } = record((await proxy.capture()).records);
    const start = (await proxy.capture()).start!;
    expect(pids).toEqual({ startPid: start.pid, proxyPid: start.proxyPid });

    expect(events.map((e) => [e.kind, e.jsonrpcId ?? null, e.payload.code ?? e.payload.method ?? null])).toEqual([
      ['process.started', null, null],
      ['transport.connected', null, null],
      ['diagnostic', null, 'non_json_frame'],
      // The fixture's parse error has id null: neither a response to anything nor a request.
      ['diagnostic', null, 'malformed_message'],
      ['tool.call_requested', 1, 'tools/call'],
      ['tool.call_requested', 2, 'tools/call'],
      ['mcp.request', 3, 'echo'],
      ['mcp.error', 2, 'tools/call'],
      ['tool.result_received', 1, 'tools/call'],
      ['mcp.response', 3, 'echo'],
      ['mcp.request', 4, 'die'],
      ['diagnostic', 4, 'transport_closed'],
      ['process.exited', null, null],
      ['transport.disconnected', null, null],
    ]);
    expect(events.every((e) => e.origin === 'wire_observed' && e.server === 'fixture' && e.turnId === 't1')).toBe(true);
    expect(events[4]!.payload.policy).toEqual({ decision: 'allowed', reason: 'in allowlist' });
    expect(events[5]!.payload.policy).toEqual({ decision: 'denied', reason: 'not in the allowlist' });
    expect(events[7]!.payload).toMatchObject({ answeredBy: 'proxy', error: { code: -32001 } });
    expect(events[2]!.payload).toMatchObject({ preview: 'hello, not json', source: 'mcp' });
    expect(events[12]!.payload).toMatchObject({ executable: 'node', exitCode: 3, reason: 'server_exit' });
    expect(JSON.stringify(events[12]!.payload.stderr)).toContain('dying with secret [REDACTED]');
    expect(JSON.stringify(trace.toJSON())).not.toContain(SECRET);

    const view = trace.view();
    expect(view.toolCalls.map((c) => [c.tool.value, c.status, c.policy?.decision])).toEqual([
      ['ok', 'success', 'allowed'],
      ['bad', 'protocol_error', 'denied'],
    ]);
    expect(view.protocol.find((p) => p.method.value === 'die')).toMatchObject({ status: 'transport_error' });
  });

  test('a command that cannot be spawned becomes a diagnostic naming the fix', async () => {
    const proxy = await startProxy({ command: 'sf-m3-no-such-command', args: [] });
    expect((await proxy.exited).code).toBe(127);
    const { events } = record((await proxy.capture()).records);
    expect(events.map((e) => [e.kind, e.payload.code])).toEqual([
      ['process.started', undefined],
      ['transport.connected', undefined],
      ['diagnostic', 'server_spawn_failed'],
    ]);
    expect(events[2]!.payload.message).toBe(
      'the capture proxy could not start MCP server fixture: the command was not found: check `command` and that it is on PATH',
    );
  });

  test('a frame cut by the bound still yields its request, by method and id, plus a diagnostic', async () => {
    const proxy = await startProxy({ bounds: { frameBytes: 64, previewBytes: 64 } });
    proxy.child.stdin.write(rpc(9, 'tools/call', { name: 'ok', arguments: { text: 'x'.repeat(200) } }));
    await proxy.waitForLines(1);
    proxy.child.stdin.end();
    await proxy.exited;
    const { events } = record((await proxy.capture()).records);
    const cut = events.filter((e) => e.kind === 'diagnostic' && e.payload.code === 'frame_truncated');
    expect(cut.length).toBeGreaterThanOrEqual(1);
    const request = events.find((e) => e.kind === 'tool.call_requested')!;
    expect(request).toMatchObject({ jsonrpcId: 9, payload: { params: { name: 'ok' } } });
  });
  test('a flood of non-JSON lines is rate-limited: 20 quoted with their evidence, one summary before the close', async () => {
    const proxy = await startProxy({
      tools: ['fixture:ok'],
      canaries: [SECRET],
      fixtureEnv: { FIXTURE_SECRET: SECRET },
    });
    proxy.child.stdin.write(Array.from({ length: 100 }, (_, i) => `noise ${i} ${SECRET}\n`).join(''));
    proxy.child.stdin.write(rpc(1, 'die'));
    await proxy.exited;
    const { events } = record((await proxy.capture()).records);
    const nonJson = events.filter((e) => e.payload.code === 'non_json_frame');
    expect(nonJson).toHaveLength(21);
    expect(nonJson.slice(0, 20).every((e) => e.rawEvidence !== undefined)).toBe(true);
    const summary = nonJson[20]!;
    expect(summary.rawEvidence).toBeUndefined();
    expect(summary.payload).toMatchObject({
      summarized: true,
      count: 100,
      firstLine: 'noise 0 [REDACTED]',
      lastLine: 'noise 99 [REDACTED]',
    });
    expect(events.indexOf(summary)).toBeLessThan(events.findIndex((e) => e.kind === 'transport.disconnected'));
    expect(JSON.stringify(events)).not.toContain(SECRET);
  });

  test('past the capture budget: a capture_budget_exhausted limitation, calls still paired from their summaries, counts at exit', async () => {
    const proxy = await startProxy({ bounds: { captureBytes: 32 * 1024 } });
    proxy.child.stdin.write(rpc(1, 'flood', { frames: 200, frameBytes: 1024 }));
    await proxy.waitForLines(201);
    proxy.child.stdin.write(rpc(2, 'tools/call', { name: 'after_flood' }));
    await proxy.waitForLines(202);
    proxy.child.stdin.end();
    await proxy.exited;
    const { trace, events } = record((await proxy.capture()).records);
    expect(trace.limitations).toContain('capture_budget_exhausted');
    const codes = events.filter((e) => e.kind === 'diagnostic').map((e) => e.payload.code);
    expect(codes).toEqual(['capture_budget_exhausted', 'capture_budget_counts']);
    expect(events.find((e) => e.payload.code === 'capture_budget_exhausted')!.payload.message).toContain(
      'raise bounds.captureBytes',
    );
    expect(events.find((e) => e.payload.code === 'capture_budget_counts')!.payload).toMatchObject({
      captureBytes: 32 * 1024,
      reducedFrames: 3,
    });
    // The call after the flood still pairs with its answer (its body is gone, so not as a success).
    const [call] = trace.view().toolCalls;
    expect(call?.tool.value).toBe('after_flood');
    expect(call?.status).not.toMatch(/^(incomplete|transport_error)$/);
  });
});
