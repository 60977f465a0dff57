import { M3Error } from '../../errors';
import type { AgentExit, AgentProcess } from '../process/AgentProcess';
import { describeExit } from '../process/agentWaits';
import type { NativeEventRecorder } from '../native/NativeEventRecorder';
import { readNdjsonLines, writeNdjsonLine } from '../native/ndjsonLines';

/** One line Pi writes in `--mode rpc`: a `response` to a command, or an event. */
export type PiFrame = Record<string, unknown> & { type?: unknown };

/** A `response` frame. */
export interface PiResponse {
  readonly command: string;
  readonly success: boolean;
  readonly data?: unknown;
  readonly error?: string;
}

/** The error of a Pi process that exited (or could not start) while the kit waited for `what`. */
export function piExited(exit: AgentExit, what: string): M3Error {
  const how = describeExit(exit);
  return new M3Error('agent_exited', `the pi agent exited (${how}) while the kit waited for ${what}`, {
    exitCode: exit.code,
    signal: exit.signal,
    harness: 'pi',
  });
}

/**
 * Pi's RPC stream over the process's stdio: commands with ids and their `response`s, every other
 * frame to `onEvent`. Raw frames both ways are kept as evidence, except the `message_update`
 * deltas (each repeats the whole partial message twice; `message_end` carries the message whole).
 */
export class PiRpc {
  private readonly pending = new Map<string, { resolve: (r: PiResponse) => void; reject: (e: Error) => void }>();
  private next = 0;
  private readonly stop: () => void;

  constructor(
    private readonly proc: AgentProcess,
    private readonly events: NativeEventRecorder,
    onEvent: (frame: PiFrame) => void,
  ) {
    this.stop = readNdjsonLines(proc.child.stdout, {
      message: (frame, raw) => {
        if (frame.type !== 'message_update') events.frame('harness_to_sdk', raw);
        const id = typeof frame.id === 'string' ? frame.id : undefined;
        const waiter = id !== undefined && frame.type === 'response' ? this.pending.get(id) : undefined;
        if (waiter !== undefined && id !== undefined) {
          this.pending.delete(id);
          waiter.resolve(frame as unknown as PiResponse);
          return;
        }
        onEvent(frame);
      },
      malformed: (raw, reason) => {
        events.malformed('pi_malformed_frame', `pi wrote a line that is ${reason}: ${raw.toString('utf8', 0, 120)}`);
      },
    });
    void proc.exited.then((exit) => {
      for (const [id, waiter] of this.pending) {
        this.pending.delete(id);
        waiter.reject(piExited(exit, `the answer to ${id}`));
      }
    });
  }

  /** Writes one command (`id` set when the caller waits for its response); false when stdin is closed. */
  async send(command: Record<string, unknown>): Promise<boolean> {
    const line = JSON.stringify(command);
    this.events.frame('sdk_to_harness', line);
    return writeNdjsonLine(this.proc.child.stdin, command);
  }

  /**
   * Sends a command and waits for its `response`, or the process's exit (`agent_exited`), or the
   * signal's abort (its reason).
   */
  async request(command: Record<string, unknown> & { type: string }, signal: AbortSignal): Promise<PiResponse> {
    const id = `m3-${command.type}-${++this.next}`;
    let onAbort = (): void => undefined;
    const answer = new Promise<PiResponse>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      onAbort = () => {
        this.pending.delete(id);
        reject(signal.reason);
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      if (this.proc.exit !== undefined) throw piExited(this.proc.exit, command.type);
      await this.send({ ...command, id });
      return await answer;
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.pending.delete(id);
      answer.catch(() => undefined);
    }
  }

  /** Stops reading (the process is gone or going). */
  close(): void {
    this.stop();
  }
}
