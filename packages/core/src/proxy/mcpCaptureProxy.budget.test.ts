// The capture file's byte budget (contract §5, §22): a server or agent that floods the connection
// cannot make capture.jsonl grow without bound. Past `bounds.captureBytes` notifications are only
// counted and requests/answers keep their summaries within 1/16 more; the relay is not affected.
import { statSync } from 'node:fs';
import type { CaptureFrameRecord, CaptureLimitRecord } from './CaptureFile';
import { rpc, startProxy, stopAllProxies } from './captureProxy.testkit';

afterEach(stopAllProxies);

const KiB = 1024;
/** What the bookkeeping records (start, limit, exit with a 16 KiB stderr tail, end) may add. */
const BOOKKEEPING_BYTES = 64 * KiB;

describe('capture proxy budget', () => {
  test('a notification flood: counted past the budget, later answers kept as summaries, the client gets every byte', async () => {
    const captureBytes = 32 * KiB;
    const proxy = await startProxy({ bounds: { captureBytes } });
    const frames = 2_000;
    proxy.child.stdin.write(rpc(1, 'flood', { frames, frameBytes: 1 * KiB }));
    await proxy.waitForLines(frames + 1, 20_000);
    proxy.child.stdin.write(rpc(2, 'tools/call', { name: 'after_flood', arguments: {} }));
    const lines = await proxy.waitForLines(frames + 2);
    expect(JSON.parse(lines[frames + 1])).toMatchObject({
      id: 2,
      result: { content: [{ text: 'called after_flood' }] },
    });
    proxy.child.stdin.end();
    expect((await proxy.exited).code).toBe(0);

    expect(statSync(proxy.capturePath).size).toBeLessThanOrEqual(captureBytes + captureBytes / 16 + BOOKKEEPING_BYTES);
    const capture = await proxy.capture();
    const limits = capture.records.filter((r): r is CaptureLimitRecord => r.type === 'limit');
    expect(limits).toEqual([expect.objectContaining({ captureBytes })]);
    // The call after the flood still pairs: request and answer as summaries, no body.
    const reduced = capture.records.filter((r): r is CaptureFrameRecord => r.type === 'frame' && r.reduced === true);
    expect(reduced.map((r) => [r.direction, r.raw, r.messages])).toEqual([
      ['server_to_client', '', [{ kind: 'response', id: 1 }]],
      ['client_to_server', '', [{ kind: 'request', id: 2, method: 'tools/call', tool: 'after_flood' }]],
      ['server_to_client', '', [{ kind: 'response', id: 2 }]],
    ]);
    const whole = capture.frames.filter((f) => f.reduced !== true);
    expect(whole.length).toBeGreaterThan(10);
    expect(whole.every((f) => f.intact)).toBe(true);
    expect(capture.exit?.budget).toEqual({
      captureBytes,
      reducedFrames: 3,
      // The flood's notifications not kept whole, and the fixture's goodbye notification at EOF.
      droppedFrames: frames - (whole.length - 1) + 1,
    });
    // seq stays gapless: nothing skipped is numbered.
    expect(capture.records.map((r) => r.seq)).toEqual(capture.records.map((_, i) => i));
  }, 30_000);

  test('a request flood past the allowance: only counted, the file stays bounded', async () => {
    const captureBytes = 8 * KiB;
    const proxy = await startProxy({ bounds: { captureBytes } });
    const requests = 1_000;
    for (let i = 0; i < requests; i += 1) proxy.child.stdin.write(rpc(i, 'echo', { i }));
    await proxy.waitForLines(requests, 20_000);
    proxy.child.stdin.end();
    expect((await proxy.exited).code).toBe(0);

    expect(statSync(proxy.capturePath).size).toBeLessThanOrEqual(captureBytes + captureBytes / 16 + BOOKKEEPING_BYTES);
    const capture = await proxy.capture();
    const budget = capture.exit?.budget;
    const frameRecords = capture.records.filter((r) => r.type === 'frame').length;
    expect(budget?.reducedFrames).toBeGreaterThan(0);
    expect(budget?.droppedFrames).toBeGreaterThan(requests);
    // Every frame (the requests, their answers, the fixture's goodbye at EOF) is in the file or counted.
    expect(frameRecords + (budget?.droppedFrames ?? 0)).toBe(2 * requests + 1);
    expect(capture.end?.exitCode).toBe(0);
  }, 30_000);

  test('within the budget nothing is marked: no limit record, no budget on exit', async () => {
    const proxy = await startProxy();
    proxy.child.stdin.write(rpc(1, 'echo', { hello: 'world' }));
    await proxy.waitForLines(1);
    proxy.child.stdin.end();
    await proxy.exited;
    const capture = await proxy.capture();
    expect(capture.records.some((r) => r.type === 'limit')).toBe(false);
    expect(capture.exit?.budget).toBeUndefined();
    expect(capture.start?.bounds.captureBytes).toBe(64 * 1024 * 1024);
  });
});
