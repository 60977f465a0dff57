import { PassThrough } from 'node:stream';
import { newlineFramedStream } from './acpFraming';

function setup(maxFrameBytes?: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const seen = { sent: [] as string[], received: [] as string[], malformed: [] as string[] };
  const stream = newlineFramedStream(
    stdin,
    stdout,
    {
      sent: (f) => seen.sent.push(f.toString('utf8')),
      received: (f) => seen.received.push(f.toString('utf8')),
      malformed: (f, reason) => seen.malformed.push(`${reason}: ${f.toString('utf8')}`),
    },
    maxFrameBytes,
  );
  return { stdin, stdout, seen, stream };
}

async function readAll(stream: ReturnType<typeof setup>['stream']): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const message of stream.readable) out.push(message);
  return out;
}

describe('newlineFramedStream', () => {
  it('splits on newline bytes: CRLF, a UTF-8 character split across chunks, junk lines, no final newline', async () => {
    const { stdout, seen, stream } = setup();
    const reading = readAll(stream);
    const euro = Buffer.from('{"text":"€"}\r\n', 'utf8');
    stdout.write(euro.subarray(0, 10)); // inside the 3-byte character
    stdout.write(Buffer.concat([euro.subarray(10), Buffer.from('not json\n[1]\n\n{"a":1}\n{"b"')]));
    stdout.end(':2}');
    expect(await reading).toEqual([{ text: '€' }, { a: 1 }]);
    expect(seen.received).toEqual(['{"text":"€"}', 'not json', '[1]', '{"a":1}', '{"b":2}']);
    expect(seen.malformed).toEqual(['not JSON: not json', 'not a JSON object: [1]', 'missing final newline: {"b":2}']);
  });

  it('errors the stream on a frame over the bound without a newline', async () => {
    const { stdout, stream } = setup(16);
    const reading = readAll(stream);
    stdout.write('{"a":"0123456789abcdef"');
    await expect(reading).rejects.toMatchObject({ code: 'acp_frame_too_large' });
  });

  it('errors the stream on a complete frame over the bound, newline included in the same chunk', async () => {
    const { stdout, seen, stream } = setup(16);
    const reading = readAll(stream);
    stdout.write('{"a":1}\n{"a":"0123456789abcdef"}\n{"b":2}\n');
    await expect(reading).rejects.toMatchObject({ code: 'acp_frame_too_large' });
    expect(seen.received).toEqual(['{"a":1}']);
  });

  it('writes each message as one compact JSON line and shows it as sent', async () => {
    const { stdin, seen, stream } = setup();
    const lines: string[] = [];
    stdin.on('data', (c: Buffer) => lines.push(c.toString('utf8')));
    const writer = stream.writable.getWriter();
    await writer.write({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { x: 'é' } });
    await writer.close();
    expect(lines.join('')).toBe('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":"é"}}\n');
    expect(seen.sent).toEqual(['{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":"é"}}']);
    expect(stdin.writableEnded).toBe(true);
  });
});
