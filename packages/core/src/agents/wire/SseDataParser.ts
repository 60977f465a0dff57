import { StringDecoder } from 'node:string_decoder';

/**
 * Reads a `text/event-stream` as it is relayed and hands back the `data` of each complete event
 * (multi-line data joined with `\n`). Bytes are decoded with a streaming UTF-8 decoder, so a
 * character split across chunks is never broken; `\r\n`, `\r` and `\n` all end lines.
 */
export class SseDataParser {
  private readonly decoder = new StringDecoder('utf8');
  private buffer = '';
  private data: string[] = [];
  private sawData = false;

  /** Feeds relayed bytes; returns the data of every event they completed. */
  push(chunk: Buffer | Uint8Array): string[] {
    this.buffer += this.decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    return this.drain(false);
  }

  /** The stream ended: returns the data of a last event that had no blank line after it. */
  end(): string[] {
    this.buffer += this.decoder.end();
    return this.drain(true);
  }

  private drain(final: boolean): string[] {
    const out: string[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      // A lone '\r' at the end may be the first half of '\r\n': wait for more.
      if (match === null || (match[0] === '\r' && match.index === this.buffer.length - 1 && !final)) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      this.line(line, out);
    }
    if (final) {
      if (this.buffer.length > 0) this.line(this.buffer, out);
      this.buffer = '';
      this.line('', out);
    }
    return out;
  }

  private line(line: string, out: string[]): void {
    if (line === '') {
      if (this.sawData) out.push(this.data.join('\n'));
      this.data = [];
      this.sawData = false;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    this.data.push(value);
    this.sawData = true;
  }
}
