import type { StoredEvaluation } from '../ExecutionStore';
import { caseIdOfEvaluation } from '../aggregation/buildAggregationItems';
import { lineageId } from '../aggregation/lineageId';
import { canonicalInstant, requireId } from '../storeInputs';

/**
 * The columns of one `evaluations` row that come from the evaluation itself, in the order both SQL
 * stores insert them; `metadata` is spelled by the store's dialect (`SqlDialect.metadataColumn`).
 * The writer adds `execution_created_at` and `is_latest` (contract §10).
 */
export const EVALUATION_COLUMNS = [
  'evaluation_id',
  'evaluator',
  'lineage_id',
  'subject_digest',
  'execution_id',
  'turn_id',
  'status',
  'score',
  'required',
  'created_at',
  'run_id',
  'suite_name',
  'case_id',
  'server',
  'tool',
  'transport',
  'harness',
  'model',
  'trial',
  'judge_model',
  'rubric_id',
  'matrix_id',
  'metadata',
  'result_json',
] as const;

/** One column of `EVALUATION_COLUMNS`. */
export type EvaluationColumn = (typeof EVALUATION_COLUMNS)[number];

/** The values of one evaluation's columns, before a store encodes them for its driver. */
export interface EvaluationColumns {
  readonly evaluation_id: string;
  readonly evaluator: string;
  /** The lineage key as decimal text (a JS number would lose its low bits). */
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
  readonly metadata: Readonly<Record<string, string>>;
  /** The result as stored, `createdAt` canonical. */
  readonly result_json: string;
}

/** Validates a stored evaluation (ids, canonical creation time) and gives its column values. */
export function evaluationColumns(evaluation: StoredEvaluation): EvaluationColumns {
  const { result, labels } = evaluation;
  requireId(result.evaluationId, 'evaluationId');
  requireId(result.evaluator, 'evaluator');
  const createdAt = canonicalInstant(result.createdAt, 'createdAt');
  // Most results already carry the canonical form: no copy then (the JSON is the same).
  const row = createdAt === result.createdAt ? result : { ...result, createdAt };
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
    metadata: labels.metadata ?? {},
    result_json: JSON.stringify(row),
  };
}
