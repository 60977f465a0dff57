import type { StoredEvaluation } from '@sf-m3/core';
import { evaluationColumns, type EvaluationColumns } from '@sf-m3/core/store';

/** One `evaluations` row as the batch writer inserts it (JSON keys are the column names, core's `EVALUATION_COLUMNS`). */
export interface EvaluationRow extends EvaluationColumns {
  is_latest: boolean;
}

/** Validates a stored evaluation and gives its row (`is_latest` is decided by the writer). */
export function evaluationRow(evaluation: StoredEvaluation): EvaluationRow {
  const columns = evaluationColumns(evaluation);
  return { ...columns, metadata: { ...columns.metadata }, is_latest: false };
}
