import type { SqliteConnection, SqlValue } from './SqliteConnection';

/**
 * Most rows one `INSERT … VALUES (…), (…)` statement carries. With the 26 columns of an evaluation
 * row that is 6 656 parameters, far below SQLite's limit (32 766), and one statement per chunk
 * keeps the driver round trips few (a 1 000-row batch takes 7: 256 + 256 + 256 + 128 + 64 + 32 + 8).
 */
export const MAX_ROWS_PER_STATEMENT = 256;

/**
 * A multi-row insert into one table: rows are bound as plain parameters of a prepared
 * `INSERT … VALUES` statement, so neither the caller nor SQLite encodes or parses JSON. Chunks are
 * powers of two (1, 2, 4 … `MAX_ROWS_PER_STATEMENT`), so at most nine statement texts exist per
 * table and each is prepared once by the connection's statement cache.
 */
export class MultiRowInsert {
  /** Statement text by row count (a power of two). */
  private readonly texts = new Map<number, string>();
  private readonly rowPlaceholders: string;

  /** `head` is `INSERT INTO t (c1, …, cN)`; `width` is N, the values per row. */
  constructor(
    private readonly head: string,
    readonly width: number,
  ) {
    if (!Number.isInteger(width) || width < 1) throw new RangeError(`a row needs at least one column, got ${width}`);
    this.rowPlaceholders = `(${Array.from({ length: width }, () => '?').join(', ')})`;
  }

  /** The statement inserting `count` rows (`count` a power of two). */
  sql(count: number): string {
    let text = this.texts.get(count);
    if (text === undefined) {
      text = `${this.head} VALUES ${Array.from({ length: count }, () => this.rowPlaceholders).join(', ')}`;
      this.texts.set(count, text);
    }
    return text;
  }

  /**
   * Inserts `count` rows; `fill(params, i)` pushes the `width` values of row `i`. Every chunk's
   * statement is issued before the first is awaited, so the driver converts the next chunk's
   * values on the main thread while SQLite (on a worker thread) writes the previous one; the
   * connection runs them one at a time, so rows keep their order except between chunks. Resolves,
   * once every chunk has run, with the number of rows inserted (fewer than `count` when the head is
   * `INSERT OR IGNORE` and some were skipped); rejects with the first failure once all have settled
   * (the caller's transaction rolls the other chunks back).
   */
  async insert(db: SqliteConnection, count: number, fill: (params: SqlValue[], row: number) => void): Promise<number> {
    const runs: Promise<{ changes: number }>[] = [];
    let next = 0;
    while (next < count) {
      const size = chunkSize(count - next);
      const params: SqlValue[] = [];
      for (let row = next; row < next + size; row += 1) fill(params, row);
      if (params.length !== size * this.width) {
        await Promise.allSettled(runs);
        throw new RangeError(`expected ${size * this.width} values for ${size} rows, got ${params.length}`);
      }
      runs.push(db.run(this.sql(size), params));
      next += size;
    }
    let inserted = 0;
    for (const settled of await Promise.allSettled(runs)) {
      if (settled.status === 'rejected') throw settled.reason;
      inserted += settled.value.changes;
    }
    return inserted;
  }
}

/** The largest power of two that is at most `remaining` and `MAX_ROWS_PER_STATEMENT`. */
export function chunkSize(remaining: number): number {
  let size = 1;
  while (size * 2 <= remaining && size * 2 <= MAX_ROWS_PER_STATEMENT) size *= 2;
  return size;
}
