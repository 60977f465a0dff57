// Backpressure: a slow reader on either side holds the other side back instead of the proxy
// buffering without bound.
import { rpc, startProxy, stopAllProxies } from './captureProxy.testkit';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MiB = 1024 * 1024;

afterEach(stopAllProxies);

describe('capture proxy backpressure', () => {
  test('a client that stops reading stops the server (its writes wait), and nothing is lost', async () => {
    const proxy = await startProxy();
    proxy.child.stdout.pause();
    const frames = 256;
    const frameBytes = 64 * 1024;
    proxy.child.stdin.write(rpc(1, 'flood', { frames, frameBytes }));
    await sleep(1500);
    // 16 MiB cannot fit in the pipes and stream buffers in between: the server must be waiting.
    expect(proxy.serverLog().map((e) => e.event)).not.toContain('flood-done');
    proxy.child.stdout.resume();
    const lines = await proxy.waitForLines(frames + 1, 20_000);
    expect(proxy.serverLog().map((e) => e.event)).toContain('flood-done');
    expect(lines.slice(0, frames).every((l) => JSON.parse(l).params.data.length === frameBytes)).toBe(true);
    expect(JSON.parse(lines[frames])).toEqual({ jsonrpc: '2.0', id: 1, result: { frames } });
    proxy.child.stdin.end();
    await proxy.exited;
  }, 30_000);

  test('a server that stops reading holds the client back (its writes queue up on its side)', async () => {
    const proxy = await startProxy();
    proxy.child.stdin.write(rpc(1, 'hold', {}));
    await proxy.waitForLines(1);
    const holding = proxy.serverLog().find((entry) => entry.event === 'holding') as { pid: number } | undefined;
    const payload = 'p'.repeat(64 * 1024);
    for (let i = 0; i < 256; i += 1) proxy.child.stdin.write(rpc(100 + i, 'echo', { payload }));
    // The proxy gets time to forward what it would; the server reads nothing until it is told to.
    await sleep(700);
    // Most of the 16 MiB is still waiting in the client's own stream: the proxy stopped reading.
    expect(proxy.child.stdin.writableLength).toBeGreaterThan(8 * MiB);
    process.kill(holding!.pid, 'SIGUSR2');
    const lines = await proxy.waitForLines(257, 20_000);
    expect(JSON.parse(lines[256]).id).toBe(355);
    proxy.child.stdin.end();
    expect((await proxy.exited).code).toBe(0);
  }, 30_000);
});
