/**
 * Reads of stored evaluations: the latest result of each lineage a filter selects, and whether a
 * lineage is required. Rows stay append-only, so both read only what `is_latest` and the sticky
 * `required` flag say; a schema-2 file opened read-only answers from its `evaluation_lineages`.
 */
import type { EvaluationLineage, EvaluationResult } from '@sf-m3/core';
import { lineageId } from '@sf-m3/core/store';
import type { SqliteConnection } from './SqliteConnection';

/** True when some stored row of the lineage was saved as required (required is sticky). */
const REQUIRED_LINEAGE_SQL =
  'SELECT EXISTS (SELECT 1 FROM evaluations WHERE lineage_id = ? AND required = 1) AS required';
/** The same question on a schema-2 database opened read-only (it keeps an evaluation_lineages table). */
const REQUIRED_LINEAGE_V2_SQL = 'SELECT required FROM evaluation_lineages WHERE lineage_id = ?';

/** Which latest results `listLatestEvaluations` returns; an absent field selects any. */
export interface EvaluationListFilter {
  runId?: string;
  executionId?: string;
  evaluator?: string;
}

/** The latest result of each lineage `filter` selects, by creation time then id. */
export async function listLatestEvaluations(
  db: SqliteConnection,
  filter: EvaluationListFilter,
): Promise<EvaluationResult[]> {
  const rows = await db.all<{ result_json: string }>(
    `SELECT result_json FROM evaluations
        WHERE is_latest = 1 AND (?1 IS NULL OR run_id = ?1) AND (?2 IS NULL OR execution_id = ?2) AND (?3 IS NULL OR evaluator = ?3)
        ORDER BY created_at, evaluation_id`,
    [filter.runId ?? null, filter.executionId ?? null, filter.evaluator ?? null],
  );
  return rows.map((r) => JSON.parse(r.result_json) as EvaluationResult);
}

/** True when `lineage` is required, asked of a database of `schemaVersion` on `db`. */
export async function isRequiredLineageRow(
  db: SqliteConnection,
  schemaVersion: number,
  lineage: EvaluationLineage,
): Promise<boolean> {
  const sql = schemaVersion < 3 ? REQUIRED_LINEAGE_V2_SQL : REQUIRED_LINEAGE_SQL;
  const row = await db.get<{ required: number }>(sql, [lineageId(lineage)]);
  return row?.required === 1;
}
