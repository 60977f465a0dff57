import type { SqliteConnection, SqlValue } from './SqliteConnection';

/** Where a row array keeps the values the lineage bookkeeping reads. */
export interface LineagePositions {
  /** The lineage key (decimal text of a 64-bit integer). */
  readonly key: number;
  readonly createdAt: number;
  readonly evaluationId: number;
}

/**
 * The stored latest row of each lineage in a JSON array of lineage keys: `head` is the key's
 * position in that array. One lookup in the lineage index per key; a new lineage finds nothing.
 */
export const STORED_LATEST_SQL = `SELECT h.key AS head, p.row_id, p.created_at, p.evaluation_id
  FROM json_each(?) h JOIN evaluations p ON p.lineage_id = CAST(h.value AS INTEGER) AND p.is_latest = 1`;

/** Steps the rows of a JSON array of row ids down from latest. */
export const DEMOTE_ROWS_SQL = 'UPDATE evaluations SET is_latest = 0 WHERE row_id IN (SELECT value FROM json_each(?))';

/** True when row (createdAt `ta`, id `ia`) is later than (`tb`, `ib`): the later time, then the larger id. */
function isLater(ta: SqlValue, ia: SqlValue, tb: SqlValue, ib: SqlValue): boolean {
  return ta !== tb ? (ta as string) > (tb as string) : (ia as string) > (ib as string);
}

/**
 * Decides `is_latest` (1 or 0) for each of `rows` about to be inserted in the open transaction,
 * and steps down the stored rows they supersede. A row is latest when it is its lineage's latest
 * row in the batch (its head) and no stored row of the lineage is later. One query finds the
 * stored latest rows of the heads' lineages; an update runs only when some of them step down
 * (never for new lineages, the common case).
 */
export async function markLatest(
  db: SqliteConnection,
  rows: readonly (readonly SqlValue[])[],
  at: LineagePositions,
): Promise<number[]> {
  const headOf = new Map<SqlValue, number>();
  rows.forEach((row, position) => {
    const seen = headOf.get(row[at.key]!);
    const other = seen === undefined ? null : rows[seen]!;
    if (
      other === null ||
      isLater(row[at.createdAt]!, row[at.evaluationId]!, other[at.createdAt]!, other[at.evaluationId]!)
    ) {
      headOf.set(row[at.key]!, position);
    }
  });
  const heads = [...headOf.values()];
  const latest = rows.map(() => 0);
  for (const position of heads) latest[position] = 1;
  const stored = await db.all<{ head: number; row_id: number; created_at: string; evaluation_id: string }>(
    STORED_LATEST_SQL,
    [JSON.stringify(heads.map((position) => rows[position]![at.key]))],
  );
  const demoted: number[] = [];
  for (const { head, row_id, created_at, evaluation_id } of stored) {
    const position = heads[head]!;
    const row = rows[position]!;
    if (isLater(created_at, evaluation_id, row[at.createdAt]!, row[at.evaluationId]!)) latest[position] = 0;
    else demoted.push(row_id);
  }
  if (demoted.length > 0) await db.run(DEMOTE_ROWS_SQL, [JSON.stringify(demoted)]);
  return latest;
}
