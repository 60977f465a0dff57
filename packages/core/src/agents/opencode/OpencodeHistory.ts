import type { OpencodeClient } from './OpencodeClient';
import type { OpencodeMessageRecorder, OpencodeTurnFacts } from './OpencodeMessageRecorder';

/** How many of the latest messages a read while the turn runs takes. */
const POLL_LIMIT = 50;
/** How many of the latest messages the last read of a turn takes (a whole long history could pass the body bound). */
const FINAL_LIMIT = 500;

/**
 * The reads of one OpenCode session's history (`GET /session/{id}/message?limit=N`, the latest N
 * messages, oldest first) into the message recorder: polls while a turn runs (one at a time; a
 * poll due while one is under way is skipped) and the turn's last read.
 */
export class OpencodeHistory {
  private reading: Promise<void> = Promise.resolve();
  private busy = false;

  constructor(
    private readonly client: OpencodeClient,
    private readonly sessionId: string,
    readonly messages: OpencodeMessageRecorder,
  ) {}

  /** A read of the latest messages while the turn runs; failures are left to the last read. */
  poll(signal: AbortSignal): void {
    if (this.busy || signal.aborted) return;
    this.busy = true;
    this.reading = this.read(signal, POLL_LIMIT, false)
      .then(() => undefined)
      .catch(() => undefined)
      .finally(() => {
        this.busy = false;
      });
  }

  /** The turn's last read, after any poll under way: every message it holds counts as complete. */
  async final(signal: AbortSignal): Promise<OpencodeTurnFacts> {
    await this.reading;
    return this.read(signal, FINAL_LIMIT, true);
  }

  private async read(signal: AbortSignal, limit: number, final: boolean): Promise<OpencodeTurnFacts> {
    const path = `/session/${this.sessionId}/message?limit=${limit}`;
    this.messages.record(await this.client.call('GET', path, undefined, signal), final);
    return this.messages.turnFacts();
  }
}
