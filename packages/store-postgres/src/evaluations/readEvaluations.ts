/**
 * Reads of saved evaluations: the latest result of each lineage, and whether a lineage is
 * required. `EvaluationWriter` keeps both current (`is_latest`, `evaluation_lineages.required`).
 */
import type { EvaluationLineage, EvaluationResult } from '@sf-m3/core';
import { lineageId } from '@sf-m3/core/store';
import type { Pool } from 'pg';

/** Which latest evaluations to list; an absent field does not filter. */
export interface EvaluationFilter {
  /** Only evaluations of this run. */
  readonly runId?: string;
  /** Only evaluations of this execution. */
  readonly executionId?: string;
  /** Only evaluations this evaluator wrote. */
  readonly evaluator?: string;
}

/** The latest row of each matching lineage, oldest first. */
export async function listEvaluations(pool: Pool, filter: EvaluationFilter): Promise<EvaluationResult[]> {
  const { rows } = await pool.query<{ result_json: string }>(
    `SELECT result_json FROM evaluations
      WHERE is_latest AND ($1::text IS NULL OR run_id = $1) AND ($2::text IS NULL OR execution_id = $2)
        AND ($3::text IS NULL OR evaluator = $3)
      ORDER BY created_at, evaluation_id`,
    [filter.runId ?? null, filter.executionId ?? null, filter.evaluator ?? null],
  );
  return rows.map((r) => JSON.parse(r.result_json) as EvaluationResult);
}

/** True when a row of `lineage` was ever saved as required (the flag is sticky). */
export async function isRequiredLineage(pool: Pool, lineage: EvaluationLineage): Promise<boolean> {
  const { rows } = await pool.query<{ required: boolean }>(
    'SELECT required FROM evaluation_lineages WHERE lineage_id = $1',
    [lineageId(lineage)],
  );
  return rows[0]?.required === true;
}
