import type { SqliteConnection } from '../SqliteConnection';

/**
 * Rebuilds `evaluation_lineages` and `is_latest` for the lineages listed in the temp table
 * `lineagesTable` (column `lineage_id`) from the evaluation rows that exist now: used after rows
 * were deleted (prune) or copied in any order (merge), so neither depends on the insert
 * triggers' bookkeeping. A lineage with no row left is removed; otherwise its latest row is the
 * greatest `(created_at, evaluation_id)` and `required` stays sticky over the remaining rows.
 * `evaluations` has no index on `lineage_id` (the hot insert path pays for every index), so the
 * rows of those lineages are gathered in one scan into an indexed temp table first.
 */
export async function recomputeLineages(db: SqliteConnection, lineagesTable: string): Promise<void> {
  const affected = `SELECT lineage_id FROM ${lineagesTable}`;
  await db.exec(`
    DROP TABLE IF EXISTS temp.lineage_rows;
    CREATE TEMP TABLE lineage_rows AS
      SELECT row_id, lineage_id, created_at, evaluation_id, required, is_latest
        FROM main.evaluations WHERE lineage_id IN (${affected});
    CREATE INDEX temp.lineage_rows_order ON lineage_rows(lineage_id, created_at, evaluation_id);
    DELETE FROM main.evaluation_lineages
     WHERE lineage_id IN (${affected}) AND lineage_id NOT IN (SELECT lineage_id FROM temp.lineage_rows);
    INSERT OR REPLACE INTO main.evaluation_lineages
      (lineage_id, latest_row_id, latest_created_at, latest_evaluation_id, required)
    SELECT e.lineage_id, e.row_id, e.created_at, e.evaluation_id,
           (SELECT MAX(r.required) FROM temp.lineage_rows r WHERE r.lineage_id = e.lineage_id)
      FROM temp.lineage_rows e
     WHERE NOT EXISTS (SELECT 1 FROM temp.lineage_rows later
                        WHERE later.lineage_id = e.lineage_id
                          AND (later.created_at, later.evaluation_id) > (e.created_at, e.evaluation_id));
    UPDATE main.evaluations SET is_latest = 0
     WHERE row_id IN (SELECT row_id FROM temp.lineage_rows WHERE is_latest = 1)
       AND row_id NOT IN (SELECT latest_row_id FROM main.evaluation_lineages WHERE lineage_id IN (${affected}));
    UPDATE main.evaluations SET is_latest = 1
     WHERE row_id IN (SELECT latest_row_id FROM main.evaluation_lineages WHERE lineage_id IN (${affected}))
       AND is_latest = 0;
    DROP TABLE temp.lineage_rows;
  `);
}
