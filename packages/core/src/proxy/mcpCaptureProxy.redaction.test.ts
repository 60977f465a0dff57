// contract §22: a capture file never holds unredacted secrets, whatever the bytes of a frame.
import { readFileSync } from 'node:fs';
import { rpc, startProxy, stopAllProxies } from './captureProxy.testkit';

afterEach(stopAllProxies);

describe('capture proxy redaction', () => {
  test('a frame that is not UTF-8 is redacted byte for byte before it is stored as base64', async () => {
    const canary = 'bin-canary-6e7f8a9b';
    const proxy = await startProxy({ canaries: [canary] });
    const frame = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(` token=${canary} `), Buffer.from([0xc3])]);
    proxy.child.stdin.write(Buffer.concat([frame, Buffer.from('\n')]));
    proxy.child.stdin.write(rpc(1, 'echo', { text: 'math basic adds' }));
    await proxy.waitForLines(1);
    proxy.child.stdin.end();
    await proxy.exited;
    const capture = await proxy.capture();
    const binary = capture.frames.find((f) => f.format === 'binary');
    expect(binary).toMatchObject({ redacted: true, direction: 'client_to_server' });
    const stored = Buffer.from(binary!.raw.replace(/^base64:/, ''), 'base64');
    expect(stored.includes(Buffer.from(canary))).toBe(false);
    expect(stored.includes(Buffer.from(' token=[REDACTED] '))).toBe(true);
    const file = readFileSync(proxy.capturePath);
    const decoded = file
      .toString('utf8')
      .replace(/"base64:([^"]*)"/g, (_m, b64: string) => Buffer.from(b64, 'base64').toString('latin1'));
    expect(decoded).not.toContain(canary);
    // A plain word after "basic" is not a token (the kit's Redactor agrees).
    expect(capture.frames.some((f) => f.raw.includes('math basic adds'))).toBe(true);
  }, 30_000);
});
