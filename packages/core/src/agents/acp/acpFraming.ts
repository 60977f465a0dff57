import type { Readable, Writable } from 'node:stream';
import { ReadableStream, WritableStream } from 'node:stream/web';
import { M3Error } from '../../errors';
import type { AcpMessage, AcpStream } from './acpSdk';

/** Largest frame accepted from an agent (upstream: 4 MiB). */
export const ACP_MAX_FRAME_BYTES = 4 * 1024 * 1024;

/** Callbacks that see every frame, both ways, as the bytes that crossed the pipe. */
export interface AcpFrameObserver {
  /** A frame the kit wrote to the agent (without the newline). */
  sent(frame: Buffer): void;
  /** A frame the agent wrote (without the newline and a trailing CR). */
  received(frame: Buffer): void;
  /** After `received`: the frame is not a JSON object (or had no final newline) and is skipped. */
  malformed(frame: Buffer, reason: string): void;
}

/**
 * The SDK's `Stream` over an agent's stdio with the kit's own newline framing: stdout is split on
 * newline bytes (not decoded strings, so a UTF-8 character split across chunks survives), each
 * frame is shown to `observer` before it is decoded, and every message the SDK writes is one
 * compact JSON line on stdin, shown to `observer` as sent, written with backpressure.
 */
export function newlineFramedStream(
  stdin: Writable,
  stdout: Readable,
  observer: AcpFrameObserver,
  maxFrameBytes = ACP_MAX_FRAME_BYTES,
): AcpStream {
  // Set once the stream is closed, errored, or cancelled by its reader (the SDK closing).
  let done = false;
  const readable = new ReadableStream<AcpMessage>({
    cancel() {
      done = true;
    },
    start(controller) {
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const emit = (line: Buffer): void => {
        const frame = line.length > 0 && line[line.length - 1] === 0x0d ? line.subarray(0, -1) : line;
        if (frame.length === 0) return;
        observer.received(frame);
        let value: unknown;
        try {
          value = JSON.parse(frame.toString('utf8'));
        } catch {
          observer.malformed(frame, 'not JSON');
          return;
        }
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          observer.malformed(frame, 'not a JSON object');
          return;
        }
        if (!done) controller.enqueue(value as AcpMessage);
      };
      const fail = (error: Error): void => {
        if (done) return;
        done = true;
        controller.error(error);
        stdout.destroy();
      };
      const tooLarge = (): void =>
        fail(
          new M3Error('acp_frame_too_large', `the agent wrote a frame over ${maxFrameBytes} bytes`, {
            maxFrameBytes,
          }),
        );
      stdout.on('data', (chunk: Buffer) => {
        if (done) return;
        let start = 0;
        for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
          const piece = chunk.subarray(start, nl);
          if (pendingBytes + piece.length > maxFrameBytes) return tooLarge();
          emit(pending.length === 0 ? piece : Buffer.concat([...pending, piece]));
          if (done) return;
          pending = [];
          pendingBytes = 0;
          start = nl + 1;
        }
        if (start < chunk.length) {
          pending.push(chunk.subarray(start));
          pendingBytes += chunk.length - start;
          if (pendingBytes > maxFrameBytes) tooLarge();
        }
      });
      stdout.once('end', () => {
        if (done) return;
        if (pendingBytes > 0) {
          const rest = Buffer.concat(pending);
          observer.received(rest);
          observer.malformed(rest, 'missing final newline');
        }
        done = true;
        controller.close();
      });
      stdout.once('error', (error) => fail(error));
    },
  });

  const writable = new WritableStream<AcpMessage>({
    write(message) {
      const frame = Buffer.from(JSON.stringify(message), 'utf8');
      observer.sent(frame);
      return new Promise<void>((resolve, reject) => {
        if (stdin.destroyed || stdin.writableEnded) {
          reject(new M3Error('agent_exited', 'the agent closed its stdin: the message was not delivered'));
          return;
        }
        const ok = stdin.write(Buffer.concat([frame, Buffer.from('\n')]), (error) => {
          if (error) reject(error);
          else if (ok) resolve();
        });
        if (!ok) stdin.once('drain', () => resolve());
      });
    },
    close() {
      stdin.end();
    },
    abort() {
      stdin.destroy();
    },
  });
  return { readable, writable };
}
