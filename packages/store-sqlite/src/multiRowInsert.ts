import type { SqliteConnection, SqlValue } from './SqliteConnection';

/**
 * Most rows one `INSERT … VALUES (…), (…)` statement carries. With the 26 columns of an evaluation
 * row that is at most 6 656 parameters, far below SQLite's limit (32 766), and one statement per
 * chunk keeps the driver round trips few (1 000 rows take 7: 256 + 256 + 256 + 128 + 64 + 32 + 8).
 */
export const MAX_ROWS_PER_STATEMENT = 256;

/**
 * Distinct null shapes (which columns of a row are NULL) that get statements of their own; rows of
 * any further shape bind their NULLs as parameters. Rows of one table rarely have more than a few.
 */
export const MAX_NULL_SHAPES = 8;

/** Widest row a null shape (a bit per column) describes. */
const MAX_WIDTH = 31;

/**
 * A multi-row insert into one table: rows are bound as plain parameters of prepared
 * `INSERT … VALUES` statements, so neither the caller nor SQLite encodes or parses JSON. The
 * driver (node-sqlite3) converts every bound value on the main thread, and a NULL costs it more
 * than a short string; so rows are grouped by their null shape, and each shape's statements spell
 * its NULL columns as literals and bind only the other values. Chunks are powers of two (1, 2, 4 …
 * `MAX_ROWS_PER_STATEMENT`): at most nine statement texts per shape, each prepared once by the
 * connection's statement cache.
 */
export class MultiRowInsert {
  /** Statement text by null shape, then row count (a power of two). */
  private readonly texts = new Map<number, Map<number, string>>();

  /** `head` is `INSERT INTO t (c1, …, cN)`; `width` is N, the values per row. */
  constructor(
    private readonly head: string,
    readonly width: number,
  ) {
    if (!Number.isInteger(width) || width < 1 || width > MAX_WIDTH) {
      throw new RangeError(`a row needs 1 to ${MAX_WIDTH} columns, got ${width}`);
    }
  }

  /** The statement inserting `count` rows (a power of two) whose columns in `shape` are NULL. */
  sql(shape: number, count: number): string {
    let byCount = this.texts.get(shape);
    if (byCount === undefined) {
      byCount = new Map();
      this.texts.set(shape, byCount);
    }
    let text = byCount.get(count);
    if (text === undefined) {
      const cells = Array.from({ length: this.width }, (_, column) => (shape & (1 << column) ? 'NULL' : '?'));
      const row = `(${cells.join(', ')})`;
      text = `${this.head} VALUES ${Array.from({ length: count }, () => row).join(', ')}`;
      byCount.set(count, text);
    }
    return text;
  }

  /**
   * Inserts `count` rows; `fill(values, i)` pushes the `width` values of row `i`. Every chunk's
   * statement is issued before the first is awaited, so the driver converts the next chunk's
   * values on the main thread while SQLite (on a worker thread) writes the previous one; the
   * connection runs them one at a time. Rows of one null shape keep their order. Resolves, once
   * every chunk has run, with the number of rows inserted (fewer than `count` when the head is
   * `INSERT OR IGNORE` and some were skipped); rejects with the first failure once all have
   * settled (the caller's transaction rolls the other chunks back).
   */
  async insert(db: SqliteConnection, count: number, fill: (values: SqlValue[], row: number) => void): Promise<number> {
    const groups = new Map<number, SqlValue[][]>();
    for (let position = 0; position < count; position += 1) {
      const values: SqlValue[] = [];
      fill(values, position);
      if (values.length !== this.width) {
        throw new RangeError(`expected ${this.width} values for row ${position}, got ${values.length}`);
      }
      let shape = 0;
      for (let column = 0; column < this.width; column += 1) if (values[column] === null) shape |= 1 << column;
      let group = groups.get(shape);
      if (group === undefined) {
        // Past MAX_NULL_SHAPES a row joins the shape without literals (its NULLs are bound).
        const own = groups.size < MAX_NULL_SHAPES ? shape : 0;
        group = groups.get(own) ?? [];
        groups.set(own, group);
      }
      group.push(values);
    }
    const runs: Promise<{ changes: number }>[] = [];
    for (const [shape, rows] of groups) {
      for (let next = 0; next < rows.length;) {
        const size = chunkSize(rows.length - next);
        const params: SqlValue[] = [];
        for (let row = next; row < next + size; row += 1) {
          const values = rows[row]!;
          for (let column = 0; column < this.width; column += 1) {
            if ((shape & (1 << column)) === 0) params.push(values[column]!);
          }
        }
        runs.push(db.run(this.sql(shape, size), params));
        next += size;
      }
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
