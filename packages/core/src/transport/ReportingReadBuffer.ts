import type * as SdkStdio from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** A line of a stdio server's stdout that is no JSON-RPC message. */
export interface UnreadableLine {
  /** `non_json`: not JSON at all; `not_json_rpc`: JSON, but not a JSON-RPC message. */
  readonly kind: 'non_json' | 'not_json_rpc';
  /** The line decoded as UTF-8 (invalid bytes become U+FFFD), without its line break. */
  readonly text: string;
  /** Its size in bytes, with the line break. */
  readonly bytes: number;
}

/**
 * The SDK's stdio helpers, required when a stdio server starts: they load the SDK's zod schemas,
 * and `ObservedTransport` imports `wasReported` from here for every transport.
 */
function sdkStdio(): typeof SdkStdio {
  loadedStdio ??= require('@modelcontextprotocol/sdk/shared/stdio.js') as typeof SdkStdio;
  return loadedStdio;
}

let loadedStdio: typeof SdkStdio | undefined;

/** Set on a parse error whose line was already handed to `onUnreadable` (see `wasReported`). */
const REPORTED = Symbol('sf-m3.unreadableLineReported');

/** True for the error of a line a `ReportingReadBuffer` already reported (and the kit recorded). */
export function wasReported(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { [REPORTED]?: boolean })[REPORTED] === true;
}

/**
 * The SDK's stdio `ReadBuffer` (same line splitting, same 10 MiB limit and overflow error, same
 * message parsing and the same error thrown for a bad line, which the SDK transport passes to
 * `onerror`), except that a line which is no JSON-RPC message is first handed to `onUnreadable`.
 * The SDK's error carries nothing of the line; this way the kit can quote and count it
 * (rate-limited), and its error is marked (`wasReported`) so it is not recorded twice.
 */
export class ReportingReadBuffer {
  /**
   * The unread bytes, as the chunks arrived: a long line is joined once, when its newline comes,
   * not on every chunk (the SDK buffer's concat per chunk copies a 10 MiB line ~80 times over).
   */
  private chunks: Buffer[] = [];
  /** Bytes in `chunks`. */
  private length = 0;
  /** Leading bytes of `chunks` already searched and known to hold no newline. */
  private searched = 0;

  constructor(
    private readonly onUnreadable: (line: UnreadableLine) => void,
    private readonly maxBufferSize: number = sdkStdio().STDIO_DEFAULT_MAX_BUFFER_SIZE,
  ) {}

  /** Appends a chunk of stdout; throws the SDK's overflow error past the buffer limit. */
  append(chunk: Buffer): void {
    const size = this.length + chunk.length;
    if (size > this.maxBufferSize) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`);
    }
    this.chunks.push(chunk);
    this.length = size;
  }

  /**
   * The next JSON-RPC message, or null when no line is complete; a line that is none is reported,
   * then its parse error thrown (the SDK transport passes it to `onerror` and reads on).
   */
  readMessage(): JSONRPCMessage | null {
    for (;;) {
      const index = this.newlineIndex();
      if (index === -1) return null;
      const line = this.take(index + 1);
      const text = line.toString('utf8', 0, index).replace(/\r$/, '');
      try {
        return sdkStdio().deserializeMessage(text);
      } catch (error) {
        const kind = error instanceof SyntaxError ? 'non_json' : 'not_json_rpc';
        try {
          this.onUnreadable({ kind, text, bytes: index + 1 });
          if (typeof error === 'object' && error !== null) Object.defineProperty(error, REPORTED, { value: true });
        } catch {
          // Reporting is best effort: the SDK still gets the error.
        }
        throw error;
      }
    }
  }

  /** Drops whatever is buffered. */
  clear(): void {
    this.chunks = [];
    this.length = 0;
    this.searched = 0;
  }

  /** Offset of the first newline in the buffered bytes, or -1; searches each byte once. */
  private newlineIndex(): number {
    let offset = 0;
    for (const chunk of this.chunks) {
      const end = offset + chunk.length;
      if (end > this.searched) {
        const found = chunk.indexOf(0x0a, Math.max(0, this.searched - offset));
        if (found !== -1) return offset + found;
      }
      offset = end;
    }
    this.searched = this.length;
    return -1;
  }

  /** Removes and returns the first `bytes` buffered bytes, joining only the chunks they span. */
  private take(bytes: number): Buffer {
    let spanned = 0;
    let count = 0;
    while (spanned < bytes) spanned += this.chunks[count++]!.length;
    const head = count === 1 ? this.chunks[0]! : Buffer.concat(this.chunks.slice(0, count), spanned);
    const rest = head.subarray(bytes);
    this.chunks = rest.length === 0 ? this.chunks.slice(count) : [rest, ...this.chunks.slice(count)];
    this.length -= bytes;
    this.searched = 0;
    return head.subarray(0, bytes);
  }
}

/**
 * Puts a `ReportingReadBuffer` in place of the SDK transport's own read buffer (a private field:
 * the SDK offers no hook for unreadable lines). Returns false, changing nothing, when this SDK
 * version keeps its buffer elsewhere; its per-line `onerror` then still reaches the kit
 * (recorded as rate-limited `transport_error` diagnostics).
 */
export function reportUnreadableLines(
  transport: StdioClientTransport,
  onUnreadable: (line: UnreadableLine) => void,
): boolean {
  const holder = transport as unknown as { _readBuffer?: unknown };
  if (!(holder._readBuffer instanceof sdkStdio().ReadBuffer)) return false;
  const limit = (holder._readBuffer as unknown as { _maxBufferSize?: unknown })._maxBufferSize;
  holder._readBuffer = new ReportingReadBuffer(onUnreadable, typeof limit === 'number' ? limit : undefined);
  return true;
}
