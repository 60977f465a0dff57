import type { JsonObject } from '../json';
import type { ProcessExit } from './ChildProcessHandle';

/** Why a stdio connection ended, in words for an error message and facts for its details. */
export interface ConnectionEnd {
  /** E.g. `the server process exited with code 3 before answering tools/call (last stderr: "boom")`. */
  readonly reason: string;
  /** `exitCode`, `signal`, or `sdkBufferLimitBytes`: facts, no payload. */
  readonly details: JsonObject;
}

/** The part of a `ChildProcessHandle` the evidence reads. */
export interface WatchedChild {
  readonly exit: ProcessExit | null;
  /** Resolves once the child has exited and its stderr has drained (bounded). */
  readonly exited: Promise<ProcessExit>;
  /** The kept stderr tail, redacted. */
  stderr(): string;
}

/** Lines and bytes of stderr an error message quotes (the newest ones). */
export const STDERR_QUOTE_LINES = 5;
export const STDERR_QUOTE_BYTES = 1024;
/**
 * How long to wait for the child's exit status once the connection closed: the SDK can report
 * the close (e.g. stdout ended) before Node delivers `exit`, and stderr drains after that.
 */
export const EXIT_STATUS_WAIT_MS = 1500;

// The SDK's ReadBuffer (shared/stdio.js) throws this when one stdout frame outgrows its buffer,
// then closes the transport: the server did nothing wrong but send a big message.
const BUFFER_LIMIT = /ReadBuffer exceeded maximum size of (\d+) bytes/;

/**
 * Collects the evidence of how a stdio connection ended — the SDK's buffer limit, or the child's
 * exit code or signal and its last redacted stderr lines — so the error of a request that the
 * close cut off can say so instead of "did the server exit?".
 */
export class StdioConnectionEnd {
  private bufferLimitBytes: number | undefined;

  constructor(private readonly child: WatchedChild) {}

  /** Notes an error the SDK transport reported (only the buffer limit matters here). */
  noteTransportError(error: unknown): void {
    const match = BUFFER_LIMIT.exec(error instanceof Error ? error.message : String(error));
    if (match !== null) this.bufferLimitBytes ??= Number(match[1]);
  }

  /**
   * Why the connection ended before `operation` was answered, after waiting (bounded) for the
   * exit status; undefined when the child is still running and no SDK limit was hit.
   */
  async describe(operation: string, waitMs: number = EXIT_STATUS_WAIT_MS): Promise<ConnectionEnd | undefined> {
    if (this.bufferLimitBytes !== undefined) return this.bufferLimitEnd(operation, this.bufferLimitBytes);
    const exit = await this.drained(waitMs);
    if (exit === null) return undefined;
    const how =
      exit.signal !== null
        ? `was killed by signal ${exit.signal}`
        : exit.code !== null
          ? `exited with code ${exit.code}`
          : 'exited';
    return {
      reason: `the server process ${how} before answering ${operation} (${quoteStderr(this.child.stderr())})`,
      details: { exitCode: exit.code, signal: exit.signal },
    };
  }

  private async drained(waitMs: number): Promise<ProcessExit | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), waitMs);
      timer.unref();
    });
    try {
      return (await Promise.race([this.child.exited, timeout])) ?? this.child.exit;
    } finally {
      clearTimeout(timer);
    }
  }

  private bufferLimitEnd(operation: string, limit: number): ConnectionEnd {
    return {
      reason:
        `a message from the server exceeded the SDK's stdio buffer limit (${limit} bytes, the ReadBuffer ` +
        `maximum of @modelcontextprotocol/sdk), so the SDK closed the connection before the server answered ` +
        `${operation}; have the server send smaller messages (e.g. a resource link instead of inline data)`,
      details: { sdkBufferLimitBytes: limit },
    };
  }
}

/** `last stderr: "…"` with at most the last 5 lines / 1 KiB of the (already redacted) tail. */
export function quoteStderr(redacted: string): string {
  const lines = redacted.replace(/\r\n/g, '\n').trimEnd().split('\n');
  let quoted = lines.slice(-STDERR_QUOTE_LINES).join('\n');
  if (quoted.trim() === '') return 'no stderr output';
  const bytes = Buffer.from(quoted, 'utf8');
  if (bytes.length > STDERR_QUOTE_BYTES) {
    let start = bytes.length - STDERR_QUOTE_BYTES;
    // Never start inside a multi-byte character.
    while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start += 1;
    quoted = `…${bytes.subarray(start).toString('utf8')}`;
  }
  return `last stderr: ${JSON.stringify(quoted)}`;
}
