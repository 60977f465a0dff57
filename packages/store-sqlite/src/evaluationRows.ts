import { canonicalInstant, caseIdOfEvaluation, requireId, StoreError, type StoredEvaluation } from '@sf-m3/core';
import { lineageId } from './lineageId';
import { markLatest } from './latestRows';
import { MultiRowInsert } from './multiRowInsert';
import { sqliteErrorCode, type SqliteConnection, type SqlValue } from './SqliteConnection';

/**
 * One evaluation row as the insert binds it: the values of one `evaluations` row in
 * `EVALUATION_FIELDS` order (the lineage key as a decimal string: a JS number would lose its low bits).
 */
export type EvaluationRow = readonly SqlValue[];

/** Columns of `evaluations` filled from the row array, by position. */
const EVALUATION_FIELDS = [
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
  'metadata_json',
  'result_json',
] as const;
type Field = (typeof EVALUATION_FIELDS)[number];

const index = (field: Field): number => EVALUATION_FIELDS.indexOf(field);
const KEY = index('lineage_id');
const EXECUTION_ID = index('execution_id');
const CREATED_AT = index('created_at');
const EVALUATION_ID = index('evaluation_id');

/**
 * The insert of a batch: each row's values in `EVALUATION_FIELDS` order, then
 * `execution_created_at` (the execution's creation time when it is stored: time buckets are of
 * the execution; else the row's own) and `is_latest`. The lineage key is bound as its decimal
 * text and stored as an integer by the column's INTEGER affinity.
 */
const INSERT = new MultiRowInsert(
  `INSERT INTO evaluations (${EVALUATION_FIELDS.join(', ')}, execution_created_at, is_latest)`,
  EVALUATION_FIELDS.length + 2,
);

/** Creation times of the stored executions among a JSON array of execution ids. */
export const EXECUTION_TIMES_SQL = `SELECT x.execution_id, x.created_at FROM executions x
  WHERE x.execution_id IN (SELECT value FROM json_each(?))`;

/** True when some stored row of the lineage was saved as required (required is sticky). */
export const REQUIRED_LINEAGE_SQL =
  'SELECT EXISTS (SELECT 1 FROM evaluations WHERE lineage_id = ? AND required = 1) AS required';
/** The same question on a schema-2 database opened read-only (it keeps an evaluation_lineages table). */
export const REQUIRED_LINEAGE_V2_SQL = 'SELECT required FROM evaluation_lineages WHERE lineage_id = ?';

/** Checks one evaluation and encodes it as the row the insert statement reads. */
export function evaluationRow(evaluation: StoredEvaluation): EvaluationRow {
  const { result, labels } = evaluation;
  requireId(result.evaluationId, 'evaluationId');
  requireId(result.evaluator, 'evaluator');
  const createdAt = canonicalInstant(result.createdAt, 'createdAt');
  // Most results already carry the canonical form: no copy then (the JSON is the same).
  const row = createdAt === result.createdAt ? result : { ...result, createdAt };
  return [
    row.evaluationId,
    row.evaluator,
    lineageId(row),
    row.subjectDigest,
    row.executionId,
    row.turnId,
    row.status,
    row.score,
    row.required ? 1 : 0,
    row.createdAt,
    labels.runId,
    labels.suiteName,
    caseIdOfEvaluation(evaluation),
    labels.server,
    labels.tool,
    labels.transport,
    labels.harness,
    labels.model,
    labels.trial,
    labels.judgeModel,
    labels.rubricId,
    labels.matrixId,
    JSON.stringify(labels.metadata ?? {}),
    JSON.stringify(row),
  ];
}

/**
 * Inserts `rows` (any number, in order) in the open transaction, keeping the latest row of each
 * lineage marked (see `markLatest`), with multi-row statements of bound values.
 */
export async function insertEvaluationRows(db: SqliteConnection, rows: readonly EvaluationRow[]): Promise<void> {
  const latest = await markLatest(db, rows, { key: KEY, createdAt: CREATED_AT, evaluationId: EVALUATION_ID });
  const executionIds = [...new Set(rows.map((row) => row[EXECUTION_ID]).filter((id) => id !== null))];
  const times = new Map<SqlValue, SqlValue>();
  if (executionIds.length > 0) {
    const found = await db.all<{ execution_id: string; created_at: string }>(EXECUTION_TIMES_SQL, [
      JSON.stringify(executionIds),
    ]);
    for (const { execution_id, created_at } of found) times.set(execution_id, created_at);
  }
  await INSERT.insert(db, rows.length, (params, position) => {
    const row = rows[position]!;
    for (const value of row) params.push(value);
    params.push(times.get(row[EXECUTION_ID]!) ?? row[CREATED_AT]!, latest[position]!);
  });
}

/** Inserts one row alone, naming it when it is a duplicate (rows are append-only) or invalid. */
export async function insertEvaluationRow(db: SqliteConnection, row: EvaluationRow): Promise<void> {
  try {
    await insertEvaluationRows(db, [row]);
  } catch (error) {
    if (sqliteErrorCode(error) === 'SQLITE_CONSTRAINT') {
      const evaluationId = row[EVALUATION_ID] as string;
      throw new StoreError(
        `evaluation could not be saved: ${evaluationId} already exists or is invalid (rows are append-only)`,
        { evaluationId },
      );
    }
    throw error;
  }
}
