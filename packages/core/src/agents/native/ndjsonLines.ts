import type { Readable, Writable } from 'node:stream';

/** Bound on one line a native CLI writes (contract §18: 1 MiB native lines). */
export const MAX_NATIVE_LINE_BYTES = 1024 * 1024;

/** What `readNdjsonLines` reports. */
export interface NdjsonLineHandlers {
  /** A line that parsed as a JSON object, with its raw bytes (for evidence). */
  readonly message: (value: Record<string, unknown>, raw: Buffer) => void;
  /** A line that is not a JSON object (or is over the bound: then `raw` is its first bytes). */
  readonly malformed?: (raw: Buffer, reason: 'not JSON' | 'not a JSON object' | 'over the line bound') => void;
  /** The stream ended (or failed). */
  readonly end?: () => void;
}

/**
 * Reads newline-delimited JSON from a CLI's stdout: one object per line, blank lines skipped, a
 * line longer than `maxLineBytes` dropped whole (reported as malformed with its first bytes), a
 * partial last line at EOF parsed as a line. Returns a function that stops reading.
 */
export function readNdjsonLines(
  stream: Readable,
  handlers: NdjsonLineHandlers,
  maxLineBytes: number = MAX_NATIVE_LINE_BYTES,
): () => void {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  const emit = (line: Buffer): void => {
    const text = line.toString('utf8').trim();
    if (text === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      handlers.malformed?.(line, 'not JSON');
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      handlers.malformed?.(line, 'not a JSON object');
      return;
    }
    handlers.message(value as Record<string, unknown>, line);
  };
  const onData = (chunk: Buffer): void => {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (skipping) {
        skipping = false;
        continue;
      }
      if (pendingBytes + piece.length > maxLineBytes) {
        handlers.malformed?.(Buffer.concat([...pending, piece]).subarray(0, 256), 'over the line bound');
      } else {
        emit(pending.length === 0 ? piece : Buffer.concat([...pending, piece]));
      }
      pending = [];
      pendingBytes = 0;
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0 || skipping) return;
    if (pendingBytes + rest.length > maxLineBytes) {
      handlers.malformed?.(Buffer.concat([...pending, rest]).subarray(0, 256), 'over the line bound');
      pending = [];
      pendingBytes = 0;
      skipping = true;
      return;
    }
    pending.push(Buffer.from(rest));
    pendingBytes += rest.length;
  };
  let ended = false;
  const onEnd = (): void => {
    if (ended) return;
    ended = true;
    if (pending.length > 0 && !skipping) emit(Buffer.concat(pending));
    pending = [];
    handlers.end?.();
  };
  stream.on('data', onData);
  stream.once('end', onEnd);
  stream.once('error', onEnd);
  return () => {
    stream.off('data', onData);
    stream.off('end', onEnd);
    stream.off('error', onEnd);
  };
}

/** Writes one JSON value as a line; resolves false when the stream is closed or fails. */
export function writeNdjsonLine(stream: Writable, value: unknown): Promise<boolean> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve(false);
  const line = `${JSON.stringify(value)}\n`;
  return new Promise((resolve) => {
    stream.write(line, (error) => resolve(error == null));
  });
}
