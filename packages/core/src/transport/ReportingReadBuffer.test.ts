import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { ReportingReadBuffer, reportUnreadableLines, type UnreadableLine } from './ReportingReadBuffer';

const message = (id: number): string => `${JSON.stringify({ jsonrpc: '2.0', id, result: {} })}\n`;

function readAll(buffer: ReportingReadBuffer): unknown[] {
  const out: unknown[] = [];
  for (let m = buffer.readMessage(); m !== null; m = buffer.readMessage()) out.push(m);
  return out;
}

describe('ReportingReadBuffer', () => {
  it('returns the JSON-RPC messages in order and reports each other line with its text and bytes', () => {
    const seen: UnreadableLine[] = [];
    const buffer = new ReportingReadBuffer((line) => seen.push(line));
    buffer.append(Buffer.from(`${message(1)}hello world\r\n{"not":"rpc"}\n`));
    buffer.append(
      Buffer.concat([Buffer.from([0xff, 0xfe, 0x41, 0x0a]), Buffer.from(message(2)), Buffer.from('partial')]),
    );
    expect(readAll(buffer)).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: {} },
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

  it('throws the SDK overflow error past its limit, as the SDK buffer does', () => {
    const ours = new ReportingReadBuffer(() => undefined, 8);
    const sdk = new ReadBuffer({ maxBufferSize: 8 });
    const chunk = Buffer.from('0123456789');
    expect(() => sdk.append(chunk)).toThrow('ReadBuffer exceeded maximum size of 8 bytes');
    expect(() => ours.append(chunk)).toThrow('ReadBuffer exceeded maximum size of 8 bytes');
    expect(ours.readMessage()).toBeNull();
  });

  it('keeps reading when the reporter throws', () => {
    const buffer = new ReportingReadBuffer(() => {
      throw new Error('reporter broke');
    });
    buffer.append(Buffer.from(`garbage\n${message(3)}`));
    expect(readAll(buffer)).toEqual([{ jsonrpc: '2.0', id: 3, result: {} }]);
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
