import { type EvaluationResult, type StoredEvaluation } from '@sf-m3/core';
import { canonicalInstant, caseIdOfEvaluation, lineageId, requireId } from '@sf-m3/core/store';

/** One `evaluations` row as the batch writer inserts it (JSON keys are the column names). */
export interface EvaluationRow {
  readonly evaluation_id: string;
  readonly evaluator: string;
  readonly lineage_id: string;
  readonly subject_digest: string;
  readonly execution_id: string | null;
  readonly turn_id: string | null;
  readonly status: string;
  readonly score: number | null;
  readonly required: boolean;
  readonly created_at: string;
  readonly run_id: string | null;
  readonly suite_name: string | null;
  readonly case_id: string | null;
  readonly server: string | null;
  readonly tool: string | null;
  readonly transport: string | null;
  readonly harness: string | null;
  readonly model: string | null;
  readonly trial: string | null;
  readonly judge_model: string | null;
  readonly rubric_id: string | null;
  readonly matrix_id: string | null;
  readonly metadata: Record<string, string>;
  readonly result_json: string;
  is_latest: boolean;
}

/** Validates a stored evaluation and gives its row (`is_latest` is decided by the writer). */
export function evaluationRow(evaluation: StoredEvaluation): EvaluationRow {
  const { result, labels } = evaluation;
  requireId(result.evaluationId, 'evaluationId');
  requireId(result.evaluator, 'evaluator');
  const row: EvaluationResult = { ...result, createdAt: canonicalInstant(result.createdAt, 'createdAt') };
  return {
    evaluation_id: row.evaluationId,
    evaluator: row.evaluator,
    lineage_id: lineageId(row),
    subject_digest: row.subjectDigest,
    execution_id: row.executionId,
    turn_id: row.turnId,
    status: row.status,
    score: row.score,
    required: row.required,
    created_at: row.createdAt,
    run_id: labels.runId,
    suite_name: labels.suiteName,
    case_id: caseIdOfEvaluation(evaluation),
    server: labels.server,
    tool: labels.tool,
    transport: labels.transport,
    harness: labels.harness,
    model: labels.model,
    trial: labels.trial,
    judge_model: labels.judgeModel,
    rubric_id: labels.rubricId,
    matrix_id: labels.matrixId,
    metadata: { ...(labels.metadata ?? {}) },
    result_json: JSON.stringify(row),
    is_latest: false,
  };
}
