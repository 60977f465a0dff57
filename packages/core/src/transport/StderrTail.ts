/** Bytes of stderr kept per child (the most recent ones). */
export const STDERR_KEEP_BYTES = 64 * 1024;
/** When the tail was cut, at most this much is skipped to restart at a line boundary. */
const RESYNC_BYTES = 8 * 1024;

/**
 * Keeps the last `limit` bytes a child wrote to stderr, and how many it wrote in all. The text is
 * raw here; callers redact it before it is stored, logged or shown.
 */
export class StderrTail {
  private chunks: Buffer[] = [];
  private kept = 0;
  private total = 0;

  constructor(private readonly limit: number = STDERR_KEEP_BYTES) {}

  /** Adds a chunk, dropping the oldest bytes beyond the limit. */
  append(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.total += bytes.length;
    this.chunks.push(bytes);
    this.kept += bytes.length;
    while (this.kept > this.limit && this.chunks.length > 0) {
      const first = this.chunks[0] as Buffer;
      const excess = this.kept - this.limit;
      if (first.length <= excess) {
        this.chunks.shift();
        this.kept -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.kept -= excess;
      }
    }
  }

  /** Bytes written in all. */
  get totalBytes(): number {
    return this.total;
  }

  /** True when older bytes were dropped. */
  get truncated(): boolean {
    return this.total > this.kept;
  }

  /**
   * The kept text. When older bytes were dropped it restarts after the first line break (within
   * 8 KiB and the first half), else skips 8 KiB (at most a quarter), so a secret cut in half at the
   * edge is unlikely to survive redaction as a fragment.
   */
  text(): string {
    let bytes = Buffer.concat(this.chunks);
    if (this.truncated) {
      const newline = bytes.indexOf(0x0a);
      const atLine = newline >= 0 && newline < Math.min(RESYNC_BYTES, bytes.length / 2);
      bytes = bytes.subarray(atLine ? newline + 1 : Math.min(RESYNC_BYTES, Math.floor(bytes.length / 4)));
      // Never start inside a multi-byte character.
      let start = 0;
      while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start += 1;
      bytes = bytes.subarray(start);
    }
    return bytes.toString('utf8');
  }
}
