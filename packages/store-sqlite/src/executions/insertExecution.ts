/**
 * The rows of a new execution: its `executions` row, with the labels copied into columns that
 * listing and aggregation filter and group on beside the whole record as JSON, and one
 * `execution_required` row per evaluator the execution requires.
 */
import type { ExecutionRecord } from '@sf-m3/core';
import { columnNames, EXECUTION_COLUMNS, executionColumnValues, StoreError } from '@sf-m3/core/store';
import { sqliteErrorCode, type SqliteConnection } from '../SqliteConnection';
import { SQLITE_DIALECT } from '../sqliteDialect';

/** The columns of a new `executions` row (core's `EXECUTION_COLUMNS`). */
const COLUMNS = columnNames(SQLITE_DIALECT, EXECUTION_COLUMNS).join(', ');

/**
 * Inserts the execution (its `createdAt` already canonical) inside the caller's write transaction;
 * an execution id that is stored already rejects with `StoreError`.
 */
export async function insertExecution(db: SqliteConnection, stored: ExecutionRecord): Promise<void> {
  try {
    await db.run(
      `INSERT INTO executions (${COLUMNS}) VALUES (${EXECUTION_COLUMNS.map(() => '?').join(', ')})`,
      executionColumnValues(stored),
    );
  } catch (error) {
    if (sqliteErrorCode(error) === 'SQLITE_CONSTRAINT') {
      throw new StoreError(`execution already exists: ${stored.executionId}`, { executionId: stored.executionId });
    }
    throw error;
  }
  for (const evaluator of new Set(stored.requiredEvaluators)) {
    await db.run('INSERT INTO execution_required (execution_id, evaluator) VALUES (?, ?)', [
      stored.executionId,
      evaluator,
    ]);
  }
}
