import type { StoredEvaluation } from '@sf-m3/core';
import {
  columnNames,
  EVALUATION_COLUMNS,
  type EvaluationColumn,
  evaluationColumns,
  StoreError,
} from '@sf-m3/core/store';
import { SQLITE_DIALECT } from './sqliteDialect';
import { markLatest } from './latestRows';
import { MultiRowInsert } from './multiRowInsert';
import { sqliteErrorCode, type SqliteConnection, type SqlValue } from './SqliteConnection';

/**
 * One evaluation row as the insert binds it: the values of one `evaluations` row in
 * `EVALUATION_FIELDS` order (the lineage key as a decimal string: a JS number would lose its low bits).
 */
export type EvaluationRow = readonly SqlValue[];

/** Columns of `evaluations` filled from the row array, by position (core's `EVALUATION_COLUMNS`). */
const EVALUATION_FIELDS = columnNames(SQLITE_DIALECT, EVALUATION_COLUMNS);
type Field = EvaluationColumn;

const index = (field: Field): number => EVALUATION_COLUMNS.indexOf(field);
const KEY = index('lineage_id');
const EXECUTION_ID = index('execution_id');
const CREATED_AT = index('created_at');
const EVALUATION_ID = index('evaluation_id');

/**
 * The insert of a batch: `OR IGNORE`, so a statement that meets a duplicate id or a value a CHECK
 * refuses skips that row instead of aborting, and SQLite needs no statement journal (it would copy
 * every index page the statement touches to a temp file first); a batch that inserted fewer rows
 * than it was given fails as a whole (see `insertEvaluationRows`). Each row's values in
 * `EVALUATION_FIELDS` order, then
 * `execution_created_at` (the execution's creation time when it is stored: time buckets are of
 * the execution; else the row's own) and `is_latest`. The lineage key is bound as its decimal
 * text and stored as an integer by the column's INTEGER affinity.
 */
const INSERT = new MultiRowInsert(
  `INSERT OR IGNORE INTO evaluations (${EVALUATION_FIELDS.join(', ')}, execution_created_at, is_latest)`,
  EVALUATION_FIELDS.length + 2,
);

/** Creation times of the stored executions among a JSON array of execution ids. */
export const EXECUTION_TIMES_SQL = `SELECT x.execution_id, x.created_at FROM executions x
  WHERE x.execution_id IN (SELECT value FROM json_each(?))`;

/** Checks one evaluation and encodes it as the row the insert statement reads. */
export function evaluationRow(evaluation: StoredEvaluation): EvaluationRow {
  const columns = evaluationColumns(evaluation);
  return EVALUATION_COLUMNS.map((field): SqlValue => {
    const value = columns[field];
    if (typeof value === 'boolean') return value ? 1 : 0;
    return typeof value === 'object' && value !== null ? JSON.stringify(value) : value;
  });
}

/**
 * Inserts `rows` (any number, in order) in the open transaction, keeping the latest row of each
 * lineage marked (see `markLatest`), with multi-row statements of bound values. When a row was
 * skipped (a duplicate id, an invalid value) it throws `SkippedEvaluationRows`: the caller rolls the
 * transaction back, so nothing of the batch stays, and the write queue retries each row alone.
 */
export async function insertEvaluationRows(db: SqliteConnection, rows: readonly EvaluationRow[]): Promise<void> {
  const executionIds = [...new Set(rows.map((row) => row[EXECUTION_ID]).filter((id) => id !== null))];
  const [latest, found] = await Promise.all([
    markLatest(db, rows, { key: KEY, createdAt: CREATED_AT, evaluationId: EVALUATION_ID }),
    executionIds.length === 0
      ? []
      : db.all<{ execution_id: string; created_at: string }>(EXECUTION_TIMES_SQL, [JSON.stringify(executionIds)]),
  ]);
  const times = new Map<SqlValue, SqlValue>(found.map((x) => [x.execution_id, x.created_at]));
  const inserted = await INSERT.insert(db, rows.length, (params, position) => {
    const row = rows[position]!;
    for (const value of row) params.push(value);
    params.push(times.get(row[EXECUTION_ID]!) ?? row[CREATED_AT]!, latest[position]!);
  });
  if (inserted !== rows.length) throw new SkippedEvaluationRows(rows.length - inserted, rows.length);
}

/** Some rows of a batch were not inserted (duplicate ids or invalid values); the batch must roll back. */
export class SkippedEvaluationRows extends Error {
  constructor(
    readonly skipped: number,
    readonly of: number,
  ) {
    super(`${skipped} of ${of} evaluation rows were refused (a duplicate id or an invalid value)`);
    this.name = 'SkippedEvaluationRows';
  }
}

/** Inserts one row alone, naming it when it is a duplicate (rows are append-only) or invalid. */
export async function insertEvaluationRow(db: SqliteConnection, row: EvaluationRow): Promise<void> {
  try {
    await insertEvaluationRows(db, [row]);
  } catch (error) {
    if (error instanceof SkippedEvaluationRows || sqliteErrorCode(error) === 'SQLITE_CONSTRAINT') {
      const evaluationId = row[EVALUATION_ID] as string;
      throw new StoreError(
        `evaluation could not be saved: ${evaluationId} already exists or is invalid (rows are append-only)`,
        { evaluationId },
      );
    }
    throw error;
  }
}
