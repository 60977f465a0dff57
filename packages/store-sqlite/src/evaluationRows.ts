import { canonicalInstant, caseIdOfEvaluation, requireId, StoreError, type StoredEvaluation } from '@sf-m3/core';
import { lineageId } from './lineageId';
import { sqliteErrorCode, type SqliteConnection, type SqlValue } from './SqliteConnection';

/**
 * One evaluation row as the insert statement reads it: a JSON array of the values of one
 * `evaluations` row in `EVALUATION_FIELDS` order (the lineage key as a decimal string: a JS number
 * would lose its low bits).
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

const KEY = EVALUATION_FIELDS.indexOf('lineage_id');
const FLAG = EVALUATION_FIELDS.length;
const index = (field: Field): number => EVALUATION_FIELDS.indexOf(field);
const at = (field: Field): string =>
  field === 'lineage_id' ? `CAST(r.value->>${index(field)} AS INTEGER)` : `r.value->>${index(field)}`;

/**
 * The head of a lineage in a batch (its latest row there): lineage key, creation time, id, and the
 * row's position in the batch. The lineage statements read only these, not the rows.
 */
type LineageHead = [lineageKey: SqlValue, createdAt: SqlValue, evaluationId: SqlValue, position: number];

const storedRowsOf = (order: '<' | '>'): string =>
  `evaluations p WHERE p.lineage_id = CAST(h.value->>0 AS INTEGER) AND p.is_latest = 1
     AND (p.created_at, p.evaluation_id) ${order} (h.value->>1, h.value->>2)`;

/** Positions of the heads that a stored row of their lineage supersedes: they are not latest. */
export const SUPERSEDED_SQL = `SELECT h.value->>3 AS position FROM json_each(?) h
  WHERE EXISTS (SELECT 1 FROM ${storedRowsOf('>')})`;

/** The stored latest rows that a head supersedes step down (a new lineage finds nothing). */
export const DEMOTE_SQL = `UPDATE evaluations SET is_latest = 0 WHERE row_id IN (
  SELECT p.row_id FROM json_each(?) h JOIN ${storedRowsOf('<')})`;

/**
 * Inserts every row of a JSON array of rows, each followed by its \`is_latest\`, in one statement
 * (one round trip through the driver however many rows; the SELECT reads no table it writes, so
 * rows stream straight in). \`execution_created_at\` is the execution's creation time when it is
 * stored (time buckets are of the execution), else the row's own.
 */
export const INSERT_EVALUATIONS_SQL = `INSERT INTO evaluations (${EVALUATION_FIELDS.join(', ')}, execution_created_at, is_latest)
SELECT ${EVALUATION_FIELDS.map(at).join(', ')},
  COALESCE((SELECT x.created_at FROM executions x WHERE x.execution_id = ${at('execution_id')}), ${at('created_at')}),
  r.value->>${FLAG}
FROM json_each(?) r`;

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
  const row = { ...result, createdAt: canonicalInstant(result.createdAt, 'createdAt') };
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

const CREATED_AT = index('created_at');
const EVALUATION_ID = index('evaluation_id');

/** True when row `a` supersedes row `b` of its lineage (later `createdAt`, then larger id). */
function isLater(a: EvaluationRow, b: EvaluationRow): boolean {
  const [ta, tb] = [a[CREATED_AT] as string, b[CREATED_AT] as string];
  return ta !== tb ? ta > tb : (a[EVALUATION_ID] as string) > (b[EVALUATION_ID] as string);
}

/** The head of each lineage in `rows`: its latest row there (later \`createdAt\`, then larger id). */
function headsOf(rows: readonly EvaluationRow[]): Map<SqlValue, number> {
  const heads = new Map<SqlValue, number>();
  rows.forEach((row, position) => {
    const seen = heads.get(row[KEY]!);
    if (seen === undefined || isLater(row, rows[seen]!)) heads.set(row[KEY]!, position);
  });
  return heads;
}

/**
 * Inserts \`rows\` (any number, in order) in the open transaction, keeping the latest row of each
 * lineage marked: a row is latest when it is its lineage's head in the batch and no stored row of
 * the lineage is later; the stored latest rows the heads supersede step down first.
 */
export async function insertEvaluationRows(db: SqliteConnection, rows: readonly EvaluationRow[]): Promise<void> {
  const heads: LineageHead[] = [...headsOf(rows).values()].map((position) => {
    const row = rows[position]!;
    return [row[KEY]!, row[CREATED_AT]!, row[EVALUATION_ID]!, position];
  });
  const headsJson = JSON.stringify(heads);
  const superseded = await db.all<{ position: number }>(SUPERSEDED_SQL, [headsJson]);
  const latest = new Set(heads.map((head) => head[3]));
  for (const { position } of superseded) latest.delete(Number(position));
  await db.run(DEMOTE_SQL, [headsJson]);
  const batch = rows.map((row, position) => [...row, latest.has(position) ? 1 : 0]);
  await db.run(INSERT_EVALUATIONS_SQL, [JSON.stringify(batch)]);
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
