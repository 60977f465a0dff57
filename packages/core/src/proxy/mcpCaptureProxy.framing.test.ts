// The real proxy script relaying to a real child server: framing on bytes, bounds and redaction.
import { readFileSync } from 'node:fs';
import { rpc, startProxy, writeInChunks, type RunningProxy, stopAllProxies } from './captureProxy.testkit';

async function closeAndWait(proxy: RunningProxy) {
  proxy.child.stdin.end();
  return proxy.exited;
}

afterEach(stopAllProxies);

describe('capture proxy framing', () => {
  test('relays a CRLF-terminated frame unchanged and records it as CRLF', async () => {
    const proxy = await startProxy();
    const request = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":1}}\r\n');
    proxy.child.stdin.write(request);
    const [line] = await proxy.waitForLines(1);
    expect(JSON.parse(line)).toEqual({ jsonrpc: '2.0', id: 1, result: { params: { a: 1 } } });
    expect(await closeAndWait(proxy)).toEqual({ code: 0, signal: null });
    expect(proxy.serverLog()[0]).toEqual({
      event: 'line',
      text: '{"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":1}}',
    });
    const capture = await proxy.capture();
    const [sent] = capture.frames.filter((f) => f.direction === 'client_to_server');
    expect(sent).toMatchObject({ crlf: true, terminated: true, format: 'json', originalSizeBytes: request.length - 2 });
    expect(sent.raw).toBe(request.subarray(0, request.length - 2).toString());
    expect(sent.messages).toEqual([{ kind: 'request', id: 1, method: 'echo' }]);
  });

  test('keeps a UTF-8 character split across chunks intact, both ways', async () => {
    const proxy = await startProxy();
    const request = Buffer.from(rpc(1, 'echo', { text: 'héllo €uro 😀' }));
    const euro = request.indexOf(Buffer.from('€'));
    const emoji = request.indexOf(Buffer.from('😀'));
    await writeInChunks(proxy, [
      request.subarray(0, euro + 1),
      request.subarray(euro + 1, emoji + 2),
      request.subarray(emoji + 2),
    ]);
    const [first] = await proxy.waitForLines(1);
    expect(JSON.parse(first).result.params.text).toBe('héllo €uro 😀');

    // The server splits its own output inside a 4-byte character and before a CRLF terminator.
    const notification = Buffer.from('{"jsonrpc":"2.0","method":"n","params":{"t":"😀 ü"}}\r\n');
    const cut = notification.indexOf(Buffer.from('😀')) + 1;
    const chunks = [
      notification.subarray(0, cut),
      notification.subarray(cut, notification.length - 1),
      notification.subarray(notification.length - 1),
    ];
    proxy.child.stdin.write(rpc(2, 'emit', { chunks: chunks.map((c) => c.toString('base64')) }));
    await proxy.waitForLines(2);
    await closeAndWait(proxy);
    const stdout = proxy.stdout();
    expect(stdout.includes(notification)).toBe(true);
    const capture = await proxy.capture();
    const received = capture.frames.filter((f) => f.direction === 'server_to_client');
    expect(received.map((f) => f.raw)).toContain('{"jsonrpc":"2.0","method":"n","params":{"t":"😀 ü"}}');
    const sent = capture.frames.find((f) => f.direction === 'client_to_server');
    expect(sent?.raw).toContain('héllo €uro 😀');
    expect(capture.frames.every((f) => f.intact)).toBe(true);
  });

  test('relays 2 MiB frames whole in both directions and bounds their capture to 1 MiB', async () => {
    const proxy = await startProxy();
    const payload = 'y'.repeat(2 * 1024 * 1024);
    proxy.child.stdin.write(rpc(1, 'echo', { payload }));
    proxy.child.stdin.write(rpc(2, 'big', { bytes: 2 * 1024 * 1024 }));
    const [echoed, big] = await proxy.waitForLines(2, 20_000);
    expect(JSON.parse(echoed).result.params.payload).toBe(payload);
    expect(JSON.parse(big).result.data).toHaveLength(2 * 1024 * 1024);
    await closeAndWait(proxy);
    expect(proxy.serverLog()[0].text).toBe(rpc(1, 'echo', { payload }).trimEnd());
    const capture = await proxy.capture();
    const large = capture.frames.filter((f) => f.originalSizeBytes > 2 * 1024 * 1024);
    expect(large).toHaveLength(3); // the echo request, its answer and the big answer
    for (const frame of large) {
      expect(frame).toMatchObject({ truncated: true, storedBytes: 1024 * 1024, intact: true, previewTruncated: true });
      expect(Buffer.byteLength(frame.preview)).toBe(64 * 1024);
    }
    // A bounded frame is not JSON any more, but its summary was taken from the whole frame.
    expect(large.find((f) => f.direction === 'server_to_client' && f.messages?.[0].id === 2)).toBeDefined();
  });

  test('relays non-JSON lines and records them as such', async () => {
    const proxy = await startProxy();
    proxy.child.stdin.write('this is not json\n');
    const [line] = await proxy.waitForLines(1);
    expect(JSON.parse(line).error.code).toBe(-32700);
    await closeAndWait(proxy);
    expect(proxy.serverLog()[0]).toEqual({ event: 'line', text: 'this is not json' });
    const capture = await proxy.capture();
    expect(capture.frames[0]).toMatchObject({
      direction: 'client_to_server',
      format: 'non_json',
      raw: 'this is not json',
    });
    expect(capture.frames[0].messages).toBeUndefined();
  });

  test('relays a JSON-RPC batch unchanged and summarises each element', async () => {
    const proxy = await startProxy();
    const batch = `[${rpc(1, 'echo', { n: 1 }).trim()},{"jsonrpc":"2.0","method":"notifications/x"},${rpc(2, 'tools/call', { name: 'quote' }).trim()}]\n`;
    proxy.child.stdin.write(batch);
    const [line] = await proxy.waitForLines(1);
    expect(JSON.parse(line).map((r: { id: number }) => r.id)).toEqual([1, 2]);
    await closeAndWait(proxy);
    expect(proxy.serverLog()[0].text).toBe(batch.trimEnd());
    const capture = await proxy.capture();
    const [sent, answered] = capture.frames;
    expect(sent.format).toBe('batch');
    expect(sent.messages).toEqual([
      { kind: 'request', id: 1, method: 'echo' },
      { kind: 'notification', method: 'notifications/x' },
      { kind: 'request', id: 2, method: 'tools/call', tool: 'quote' },
    ]);
    expect(sent.policy).toEqual([{ index: 2, id: 2, tool: 'quote', decision: 'allowed', reason: 'all tools allowed' }]);
    expect(answered.messages).toEqual([
      { kind: 'response', id: 1 },
      { kind: 'response', id: 2 },
    ]);
  });

  test('redacts secrets (plain and JSON-escaped) in frames and the stderr tail, but the server still gets them', async () => {
    const secret = 'sk-live-"quoted"-4242';
    const proxy = await startProxy({
      env: { API_TOKEN: secret },
      fixtureEnv: { FIXTURE_SECRET: secret },
      canaries: ['hunter2-canary'],
    });
    proxy.child.stdin.write(rpc(1, 'secret'));
    proxy.child.stdin.write(rpc(2, 'echo', { password: 'hunter2-canary', auth: 'Bearer abc.def' }));
    proxy.child.stdin.write(rpc(3, 'stderr', { text: `oops ${secret}\n` }));
    const lines = await proxy.waitForLines(3);
    expect(JSON.parse(lines[0]).result.value).toBe(secret);
    await closeAndWait(proxy);
    const text = readFileSync(proxy.capturePath, 'utf8');
    expect(text).not.toContain('sk-live');
    expect(text).not.toContain('hunter2-canary');
    expect(text).not.toContain('abc.def');
    const capture = await proxy.capture();
    expect(capture.frames.find((f) => f.messages?.[0].id === 1 && f.direction === 'server_to_client')).toMatchObject({
      redacted: true,
      raw: '{"jsonrpc":"2.0","id":1,"result":{"value":"[REDACTED]"}}',
    });
    expect(capture.exit?.stderrTail).toContain('oops [REDACTED]');
  });
});
