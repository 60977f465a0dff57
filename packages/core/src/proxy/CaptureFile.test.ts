import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CaptureFile } from './CaptureFile';

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const at = { time: 1, ts: '1970-01-01T00:00:00.001Z', server: 's' };

function frame(seq: number, raw: string, extra: object = {}) {
  return {
    v: 1,
    seq,
    ...at,
    type: 'frame',
    direction: 'client_to_server',
    origin: 'client',
    format: 'json',
    originalSizeBytes: Buffer.byteLength(raw),
    sizeBytes: Buffer.byteLength(raw),
    storedBytes: Buffer.byteLength(raw),
    sha256: sha(raw),
    truncated: false,
    redacted: false,
    crlf: false,
    terminated: true,
    raw,
    ...extra,
  };
}

function tempCapture(): string {
  return join(mkdtempSync(join(tmpdir(), 'sf-m3-capture-')), 'capture.jsonl');
}

describe('CaptureFile', () => {
  test('a missing file reads as empty', async () => {
    const file = new CaptureFile(tempCapture());
    expect(await file.read()).toEqual([]);
    expect(file.end).toBeUndefined();
  });

  test('reads incrementally and leaves a torn last line for the next read', async () => {
    const path = tempCapture();
    const first = `${JSON.stringify(frame(0, '{"a":1}'))}\n`;
    const second = JSON.stringify(frame(1, '{"b":"é"}'));
    const cut = Buffer.from(second).indexOf(Buffer.from('é')) + 1; // inside the 2-byte character
    appendFileSync(path, Buffer.concat([Buffer.from(first), Buffer.from(second).subarray(0, cut)]));
    const file = new CaptureFile(path);
    expect((await file.read()).map((r) => r.seq)).toEqual([0]);
    expect(file.tornTail).toBe(true);
    appendFileSync(path, Buffer.concat([Buffer.from(second).subarray(cut), Buffer.from('\n')]));
    expect((await file.read()).map((r) => r.seq)).toEqual([1]);
    expect(file.tornTail).toBe(false);
    expect(file.frames.map((f) => f.raw)).toEqual(['{"a":1}', '{"b":"é"}']);
    expect(await file.read()).toEqual([]);
  });

  test('skips malformed lines and records of another version, and checks integrity', async () => {
    const path = tempCapture();
    appendFileSync(path, `not json\n${JSON.stringify({ ...frame(0, 'x'), v: 99 })}\n`);
    appendFileSync(path, `${JSON.stringify({ ...frame(1, 'tampered'), sha256: sha('original') })}\n`);
    const file = await CaptureFile.readAll(path);
    expect(file.malformedLines).toBe(2);
    expect(file.frames).toHaveLength(1);
    expect(file.frames[0].intact).toBe(false);
  });

  test('previews are cut at the start record’s bound on a character boundary', async () => {
    const path = tempCapture();
    const start = {
      v: 1,
      seq: 0,
      ...at,
      type: 'start',
      pid: 1,
      proxyPid: 2,
      toolPolicy: { mode: 'allow_all' },
      bounds: { previewBytes: 4, frameBytes: 100, stderrTailBytes: 10 },
    };
    appendFileSync(path, `${JSON.stringify(start)}\n${JSON.stringify(frame(1, 'ab€cd'))}\n`);
    const file = await CaptureFile.readAll(path);
    expect(file.start?.pid).toBe(1);
    expect(file.frames[0]).toMatchObject({ preview: 'ab', previewTruncated: true, intact: true });
  });
});
