import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { ReportingReadBuffer, reportUnreadableLines, wasReported, type UnreadableLine } from './ReportingReadBuffer';

const message = (id: number): string => `${JSON.stringify({ jsonrpc: '2.0', id, result: {} })}\n`;

/** Reads as the SDK transport does: every message until none is complete, errors go aside. */
function readAll(buffer: ReportingReadBuffer, errors: unknown[] = []): unknown[] {
  const out: unknown[] = [];
  for (;;) {
    try {
      const message = buffer.readMessage();
      if (message === null) return out;
      out.push(message);
    } catch (error) {
      errors.push(error);
    }
  }
}

describe('ReportingReadBuffer', () => {
  it('returns the JSON-RPC messages in order and reports each other line with its text and bytes', () => {
    const seen: UnreadableLine[] = [];
    const errors: unknown[] = [];
    const buffer = new ReportingReadBuffer((line) => seen.push(line));
    buffer.append(Buffer.from(`${message(1)}hello world\r\n{"not":"rpc"}\n`));
    buffer.append(
      Buffer.concat([Buffer.from([0xff, 0xfe, 0x41, 0x0a]), Buffer.from(message(2)), Buffer.from('partial')]),
    );
    expect(readAll(buffer, errors)).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
    // The SDK still gets its error for each bad line (it logs them), marked as recorded.
    expect(errors.map((e) => [(e as Error).constructor.name, wasReported(e)])).toEqual([
      ['SyntaxError', true],
      ['ZodError', true],
      ['SyntaxError', true],
    ]);
    expect(seen).toEqual([
      { kind: 'non_json', text: 'hello world', bytes: 13 },
      { kind: 'not_json_rpc', text: '{"not":"rpc"}', bytes: 14 },
      { kind: 'non_json', text: '\ufffd\ufffdA', bytes: 4 },
    ]);
    // The unfinished line waits for its newline.
    buffer.append(Buffer.from(' line\n'));
    expect(readAll(buffer)).toEqual([]);
    expect(seen.at(-1)).toEqual({ kind: 'non_json', text: 'partial line', bytes: 13 });
  });

  it('reads lines split anywhere across chunks: a CRLF, a UTF-8 character and a newline at a chunk start', () => {
    const seen: UnreadableLine[] = [];
    const buffer = new ReportingReadBuffer((line) => seen.push(line));
    const bytes = Buffer.from(`${message(1)}caf\u00e9 au lait\r\n${message(2)}${message(3)}`);
    // One byte per chunk puts every boundary, including inside "é" and between \r and \n, at a split.
    const read: unknown[] = [];
    for (const byte of bytes) {
      buffer.append(Buffer.from([byte]));
      read.push(...readAll(buffer));
    }
    expect(read).toEqual([1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, result: {} })));
    expect(seen).toEqual([{ kind: 'non_json', text: 'caf\u00e9 au lait', bytes: 15 }]);
  });

  it('joins a long line once, when its newline arrives, not on every chunk', () => {
    const concat = jest.spyOn(Buffer, 'concat');
    try {
      const buffer = new ReportingReadBuffer(() => undefined);
      const body = JSON.stringify({ jsonrpc: '2.0', id: 7, result: { text: 'x'.repeat(64 * 1024 * 40) } });
      const line = Buffer.from(`${body}\n`);
      for (let at = 0; at < line.length; at += 64 * 1024) {
        buffer.append(line.subarray(at, at + 64 * 1024));
        if (at + 64 * 1024 < line.length) expect(buffer.readMessage()).toBeNull();
      }
      expect(buffer.readMessage()).toEqual(JSON.parse(body));
      expect(buffer.readMessage()).toBeNull();
      expect(concat).toHaveBeenCalledTimes(1);
    } finally {
      concat.mockRestore();
    }
  });

  it('throws the SDK overflow error past its limit, as the SDK buffer does', () => {
    const ours = new ReportingReadBuffer(() => undefined, 8);
    const sdk = new ReadBuffer({ maxBufferSize: 8 });
    const chunk = Buffer.from('0123456789');
    expect(() => sdk.append(chunk)).toThrow('ReadBuffer exceeded maximum size of 8 bytes');
    expect(() => ours.append(chunk)).toThrow('ReadBuffer exceeded maximum size of 8 bytes');
    expect(ours.readMessage()).toBeNull();
  });

  it('keeps reading when the reporter throws, and leaves that line unmarked', () => {
    const buffer = new ReportingReadBuffer(() => {
      throw new Error('reporter broke');
    });
    const errors: unknown[] = [];
    buffer.append(Buffer.from(`garbage\n${message(3)}`));
    expect(readAll(buffer, errors)).toEqual([{ jsonrpc: '2.0', id: 3, result: {} }]);
    expect(errors.map(wasReported)).toEqual([false]);
  });

  it('takes the place of the read buffer of an SDK stdio transport (which keeps its limit)', () => {
    const transport = new StdioClientTransport({ command: process.execPath, maxBufferSize: 1234 });
    expect(reportUnreadableLines(transport, () => undefined)).toBe(true);
    const installed = (transport as unknown as { _readBuffer: unknown })._readBuffer;
    expect(installed).toBeInstanceOf(ReportingReadBuffer);
    expect(() => (installed as ReportingReadBuffer).append(Buffer.alloc(1235))).toThrow('maximum size of 1234 bytes');
  });

  it('changes nothing on a transport without the SDK buffer', () => {
    const transport = { _readBuffer: { append: () => undefined } };
    expect(reportUnreadableLines(transport as never, () => undefined)).toBe(false);
    expect(transport._readBuffer).not.toBeInstanceOf(ReportingReadBuffer);
  });
});
