/** One queued write and the promise waiting for it. */
interface QueuedWrite {
  readonly work: () => Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Serializes writes on one connection and coalesces the writes that arrive while a transaction
 * runs into the next one: many concurrent `saveEvaluation` calls become one `BEGIN IMMEDIATE`
 * batch. If a batch fails, each of its writes is retried alone, so one bad write fails only its
 * own caller and never loses the others.
 */
export class WriteQueue {
  private pending: QueuedWrite[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly runBatch: (works: readonly (() => Promise<void>)[]) => Promise<void>,
    private readonly maxBatch = 2_000,
  ) {}

  /** Queues `work` to run inside a write transaction; resolves once that transaction commits. */
  enqueue<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let value: T;
      const run = async (): Promise<void> => {
        value = await work();
      };
      this.pending.push({ work: run, resolve: () => resolve(value), reject });
      if (this.running === null) this.running = this.drain();
    });
  }

  /** Resolves when every write queued so far has settled. */
  async idle(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  private async drain(): Promise<void> {
    // Let writes issued in the same tick join the first batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, this.maxBatch);
        try {
          await this.runBatch(batch.map((w) => w.work));
          batch.forEach((w) => w.resolve());
        } catch (batchError) {
          if (batch.length === 1) {
            batch[0]!.reject(batchError);
            continue;
          }
          for (const write of batch) {
            try {
              await this.runBatch([write.work]);
              write.resolve();
            } catch (error) {
              write.reject(error);
            }
          }
        }
      }
    } finally {
      this.running = null;
    }
  }
}
