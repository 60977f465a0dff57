/**
 * Rows that can be written together (evaluation rows): `insert` writes any number of them with a
 * few multi-row statements (`INSERT … VALUES (…), (…)`, see multiRowInsert.ts).
 */
export interface RowBatchKind<Row> {
  readonly insert: (rows: readonly Row[]) => Promise<void>;
}

/** A unit of work inside a write transaction. */
export interface WriteWork {
  /** Runs this work alone (for a row: a one-row insert whose errors name that row). */
  readonly run: () => Promise<void>;
  /**
   * Set for one row of a `RowBatchKind`: consecutive works of the same kind are written by one
   * `insert` of all their rows instead of one statement (and one driver round trip) each.
   */
  readonly row?: { readonly kind: RowBatchKind<unknown>; readonly value: unknown };
}

/** One queued write and the promise waiting for it. */
interface QueuedWrite {
  readonly work: WriteWork;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Runs a batch of works in order: each run of consecutive rows of one kind is written by a single
 * `insert`, any other work (and a lone row) runs alone. The first failure rejects; the caller
 * rolls back, and `WriteQueue` retries each work alone, so a bad row fails only its own caller.
 */
export async function runWorks(works: readonly WriteWork[]): Promise<void> {
  let i = 0;
  while (i < works.length) {
    const kind = works[i]!.row?.kind;
    let j = i + 1;
    if (kind !== undefined) while (j < works.length && works[j]!.row?.kind === kind) j += 1;
    if (j - i === 1) await works[i]!.run();
    else await kind!.insert(works.slice(i, j).map((w) => w.row!.value));
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
  enqueue<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let value: T;
      const run = async (): Promise<void> => {
        value = await work();
      };
      this.push({ work: { run }, resolve: () => resolve(value), reject });
    });
  }

  /**
   * Queues one row of `kind`; resolves once the transaction that wrote it commits. Alone (or when
   * its batch fails and each write is retried alone) it is written by `alone`.
   */
  enqueueRow<Row>(kind: RowBatchKind<Row>, value: Row, alone: () => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const row = { kind: kind as RowBatchKind<unknown>, value };
      this.push({ work: { run: alone, row }, resolve, reject });
    });
  }

  private push(write: QueuedWrite): void {
    this.pending.push(write);
    if (this.running === null) this.running = this.drain();
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
