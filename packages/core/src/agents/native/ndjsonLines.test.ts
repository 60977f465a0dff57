import { PassThrough } from 'node:stream';
import { readNdjsonLines, writeNdjsonLine } from './ndjsonLines';

function collect(maxLineBytes?: number) {
  const stream = new PassThrough();
  const messages: unknown[] = [];
  const malformed: string[] = [];
  let ended = false;
  const stop = readNdjsonLines(
    stream,
    {
      message: (value) => messages.push(value),
      malformed: (raw, reason) => malformed.push(`${reason}: ${raw.toString('utf8').slice(0, 20)}`),
      end: () => (ended = true),
    },
    maxLineBytes,
  );
  return { stream, messages, malformed, stop, ended: () => ended };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('readNdjsonLines', () => {
  it('joins lines split across chunks and skips blank lines', async () => {
    const r = collect();
    r.stream.write('{"a":1}\n\n{"b"');
    r.stream.write(':2}\r\n{"c":3}');
    r.stream.end('\n');
    await tick();
    expect(r.messages).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
    expect(r.ended()).toBe(true);
  });

  it('reports lines that are not JSON objects and keeps reading', async () => {
    const r = collect();
    r.stream.end('not json\n[1,2]\n"text"\n{"ok":true}\n');
    await tick();
    expect(r.messages).toEqual([{ ok: true }]);
    expect(r.malformed).toEqual(['not JSON: not json', 'not a JSON object: [1,2]', 'not a JSON object: "text"']);
  });

  it('drops a line over the bound whole, even when it arrives in pieces, then reads on', async () => {
    const r = collect(16);
    r.stream.write('{"big":"aaaaaaaaa');
    r.stream.write('aaaaaaaaaaaaaaaaaaaa');
    r.stream.write('aaaa"}\n{"next":1}\n');
    r.stream.end('{"x":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbb"}\n');
    await tick();
    expect(r.messages).toEqual([{ next: 1 }]);
    expect(r.malformed).toEqual([
      expect.stringMatching(/^over the line bound: \{"big":"a+$/),
      expect.stringMatching(/^over the line bound: \{"x":"b+$/),
    ]);
  });

  it('parses a last line without a newline at the end of the stream', async () => {
    const r = collect();
    r.stream.end('{"last":true}');
    await tick();
    expect(r.messages).toEqual([{ last: true }]);
  });

  it('stops reading when told to', async () => {
    const r = collect();
    r.stop();
    r.stream.end('{"a":1}\n');
    await tick();
    expect(r.messages).toEqual([]);
  });
});

describe('writeNdjsonLine', () => {
  it('writes one line and says false once the stream has ended', async () => {
    const stream = new PassThrough();
    const chunks: string[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
    await expect(writeNdjsonLine(stream, { type: 'prompt', text: 'a\nb' })).resolves.toBe(true);
    stream.end();
    await expect(writeNdjsonLine(stream, { late: true })).resolves.toBe(false);
    expect(chunks.join('')).toBe('{"type":"prompt","text":"a\\nb"}\n');
  });
});
