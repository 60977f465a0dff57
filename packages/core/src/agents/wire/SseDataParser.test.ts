import { SseDataParser } from './SseDataParser';

describe('SseDataParser', () => {
  test('returns the data of complete events; comments, ids and event names are skipped', () => {
    const parser = new SseDataParser();
    expect(parser.push(Buffer.from(': ping\n\nid: 1\nevent: message\ndata: {"a":1}\n'))).toEqual([]);
    expect(parser.push(Buffer.from('\ndata: two\ndata:lines\n\n'))).toEqual(['{"a":1}', 'two\nlines']);
    expect(parser.push(Buffer.from('id: 2\n\n'))).toEqual([]);
  });

  test('accepts CRLF and CR line ends, also split across chunks', () => {
    const parser = new SseDataParser();
    expect(parser.push(Buffer.from('data: x\r'))).toEqual([]);
    // A final '\r' may be the start of '\r\n': the event it ends is only known with the next byte.
    expect(parser.push(Buffer.from('\n\r\ndata: y\r\r'))).toEqual(['x']);
    expect(parser.push(Buffer.from('\n'))).toEqual(['y']);
    expect(parser.push(Buffer.from('data: z\r\rdata: w\n\n'))).toEqual(['z', 'w']);
  });

  test('keeps a UTF-8 character split across chunks intact', () => {
    const bytes = Buffer.from('data: héllo 😀\n\n');
    const split = bytes.indexOf(0x9f); // inside the emoji
    const parser = new SseDataParser();
    expect(parser.push(bytes.subarray(0, split))).toEqual([]);
    expect(parser.push(bytes.subarray(split))).toEqual(['héllo 😀']);
  });

  test('end() flushes a last event without its blank line', () => {
    const parser = new SseDataParser();
    expect(parser.push(Buffer.from('data: last'))).toEqual([]);
    expect(parser.end()).toEqual(['last']);
  });
});
