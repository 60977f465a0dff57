// Tool policy at the wire: denied calls are answered by the proxy and never reach the server.
import { rpc, startProxy, stopAllProxies } from './captureProxy.testkit';

const call = (id: number, name: string) => rpc(id, 'tools/call', { name, arguments: { weight: 2 } });

afterEach(stopAllProxies);

describe('capture proxy tool policy', () => {
  test('omitted tools allows every call', async () => {
    const proxy = await startProxy();
    proxy.child.stdin.write(call(1, 'quote'));
    proxy.child.stdin.write(call(2, 'anything'));
    const lines = await proxy.waitForLines(2);
    expect(lines.map((l) => JSON.parse(l).result.content[0].text)).toEqual(['called quote', 'called anything']);
    proxy.child.stdin.end();
    await proxy.exited;
    expect(proxy.serverLog().filter((e) => e.event === 'line')).toHaveLength(2);
  });

  test('tools: [] denies every call with a JSON-RPC error and forwards nothing', async () => {
    const proxy = await startProxy({ tools: [] });
    proxy.child.stdin.write(call(7, 'quote'));
    proxy.child.stdin.write(rpc(8, 'echo', { still: 'works' }));
    const [denied, echoed] = await proxy.waitForLines(2);
    expect(JSON.parse(denied)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32001,
        message: "MCP tool call 'fixture:quote' was denied by this test's tool policy (every tool is denied)",
        data: { server: 'fixture', tool: 'quote', reason: 'every tool is denied' },
      },
    });
    expect(JSON.parse(echoed).result).toEqual({ params: { still: 'works' } });
    proxy.child.stdin.end();
    expect((await proxy.exited).code).toBe(0);
    // The server's own log: only the echo arrived.
    expect(
      proxy
        .serverLog()
        .filter((e) => e.event === 'line')
        .map((e) => JSON.parse(e.text!).method),
    ).toEqual(['echo']);
    const capture = await proxy.capture();
    const request = capture.frames.find((f) => f.messages?.[0].method === 'tools/call');
    expect(request).toMatchObject({ forwarded: false, policy: [{ id: 7, tool: 'quote', decision: 'denied' }] });
    const answer = capture.frames.find((f) => f.origin === 'proxy');
    expect(answer).toMatchObject({ direction: 'server_to_client', messages: [{ kind: 'error', id: 7 }] });
  });

  test('qualified names allow only those tools of this server', async () => {
    const proxy = await startProxy({ tools: ['fixture:quote', 'other:track'], knownServers: ['fixture', 'other'] });
    proxy.child.stdin.write(call(1, 'quote'));
    proxy.child.stdin.write(call(2, 'track'));
    const lines = (await proxy.waitForLines(2)).map((l) => JSON.parse(l));
    expect(lines.find((l) => l.id === 1).result.content[0].text).toBe('called quote');
    expect(lines.find((l) => l.id === 2).error).toMatchObject({
      code: -32001,
      data: { tool: 'track', reason: 'not in the allowlist' },
    });
    proxy.child.stdin.end();
    await proxy.exited;
    const forwarded = proxy
      .serverLog()
      .filter((e) => e.event === 'line')
      .map((e) => JSON.parse(e.text!).params.name);
    expect(forwarded).toEqual(['quote']);
  });

  test('in a batch, denied calls are answered and only the allowed elements are forwarded', async () => {
    const proxy = await startProxy({ tools: ['fixture:quote'] });
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'quote' } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'delete_everything' } },
      { jsonrpc: '2.0', method: 'tools/call', params: { name: 'delete_everything' } },
      { jsonrpc: '2.0', id: 3, method: 'echo' },
    ];
    proxy.child.stdin.write(`${JSON.stringify(batch)}\n`);
    const answers = (await proxy.waitForLines(2)).map((l) => JSON.parse(l));
    const flat = answers.flat();
    expect(flat.find((a) => a.id === 2).error.code).toBe(-32001);
    expect(flat.find((a) => a.id === 1).result.content[0].text).toBe('called quote');
    expect(flat.find((a) => a.id === 3).result).toEqual({ params: null });
    proxy.child.stdin.end();
    await proxy.exited;
    const received = proxy.serverLog().filter((e) => e.event === 'line');
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0].text!)).toEqual([batch[0], batch[3]]);
    const capture = await proxy.capture();
    expect(capture.frames[0]).toMatchObject({ forwarded: true, partiallyForwarded: true });
    expect(capture.frames[0].policy?.map((p) => [p.index, p.decision])).toEqual([
      [0, 'allowed'],
      [1, 'denied'],
      [2, 'denied'],
    ]);
  });

  test('a denial is answered between server frames, never inside one the server is still writing', async () => {
    const proxy = await startProxy({ tools: [] });
    const notification = Buffer.from('{"jsonrpc":"2.0","method":"notifications/slow","params":{"text":"half way"}}\n');
    const cut = notification.indexOf('way');
    const emit = (chunk: Buffer) => rpc(`emit-${chunk.length}`, 'emit', { chunks: [chunk.toString('base64')] });
    // The server writes the first part of a frame and then waits for its next request.
    proxy.child.stdin.write(emit(notification.subarray(0, cut)));
    while (proxy.stdout().length < cut) await new Promise((resolve) => setTimeout(resolve, 10));
    proxy.child.stdin.write(call(7, 'quote'));
    proxy.child.stdin.write(emit(notification.subarray(cut)));
    const [first, second] = await proxy.waitForLines(2);
    expect(`${first}\n`).toBe(notification.toString());
    expect(JSON.parse(second)).toMatchObject({ id: 7, error: { code: -32001 } });
    proxy.child.stdin.end();
    await proxy.exited;
    const capture = await proxy.capture();
    // The proxy's answer was recorded when it was decided, before the server's frame was complete.
    const received = capture.frames.filter((f) => f.direction === 'server_to_client');
    expect(received.map((f) => [f.origin, f.messages?.[0].method ?? f.messages?.[0].id])).toEqual([
      ['proxy', 7],
      ['server', 'notifications/slow'],
      ['server', 'notifications/goodbye'],
    ]);
  });

  test('a batch of only denied calls reaches the server not at all', async () => {
    const proxy = await startProxy({ tools: [] });
    proxy.child.stdin.write(`[${call(1, 'a').trim()},${call(2, 'b').trim()}]\n`);
    const [line] = await proxy.waitForLines(1);
    expect(JSON.parse(line).map((e: { id: number; error: { code: number } }) => [e.id, e.error.code])).toEqual([
      [1, -32001],
      [2, -32001],
    ]);
    proxy.child.stdin.end();
    await proxy.exited;
    expect(proxy.serverLog().filter((e) => e.event === 'line')).toEqual([]);
  });
});
