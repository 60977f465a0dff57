/** A unit of work inside a write transaction. */
export interface WriteWork {
  readonly run: () => Promise<void>;
  /**
   * True for a write of exactly one statement text that does not depend on other writes (an
   * evaluation row): consecutive ones are issued together and run back to back on the
   * connection, in order, instead of one event-loop round trip each.
   */
  readonly single: boolean;
}

/** One queued write and the promise waiting for it. */
interface QueuedWrite {
  readonly work: WriteWork;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Runs a batch of works in order: runs of `single` works are issued at once (the driver keeps
 * one statement's executions in order), any other work is awaited alone. Waits for everything
 * issued before reporting the first failure, so the caller can roll back cleanly.
 */
export async function runWorks(works: readonly WriteWork[]): Promise<void> {
  let i = 0;
  while (i < works.length) {
    if (!works[i]!.single) {
      await works[i]!.run();
      i += 1;
      continue;
    }
    let j = i;
    while (j < works.length && works[j]!.single) j += 1;
    const settled = await Promise.allSettled(works.slice(i, j).map((w) => w.run()));
    const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failure !== undefined) throw failure.reason;
    i = j;
  }
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
    private readonly runBatch: (works: readonly WriteWork[]) => Promise<void>,
    private readonly maxBatch = 5_000,
  ) {}

  /** Queues `work` to run inside a write transaction; resolves once that transaction commits. */
  enqueue<T>(work: () => Promise<T>, single = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let value: T;
      const run = async (): Promise<void> => {
        value = await work();
      };
      this.pending.push({ work: { run, single }, resolve: () => resolve(value), reject });
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
