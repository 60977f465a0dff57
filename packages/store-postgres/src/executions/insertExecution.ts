import type { ExecutionRecord } from '@sf-m3/core';
import { columnNames, EXECUTION_COLUMNS, executionColumnValues, StoreError } from '@sf-m3/core/store';
import type { PoolClient } from 'pg';
import { POSTGRES_DIALECT } from '../postgresDialect';

/** The columns of a new `executions` row (core's `EXECUTION_COLUMNS`). */
const COLUMNS = columnNames(POSTGRES_DIALECT, EXECUTION_COLUMNS).join(', ');

/**
 * Inserts a new, unfinished execution — its row, with every label in its own column for filters
 * and aggregation, and the evaluators it requires — inside the caller's transaction. An execution
 * id that exists already is refused (nothing is replaced), so the transaction rolls back whole.
 */
export async function insertExecution(db: PoolClient, stored: ExecutionRecord): Promise<void> {
  const placeholders = EXECUTION_COLUMNS.map((_, i) => `$${i + 1}`).join(', ');
  const inserted = await db.query(
    `INSERT INTO executions (${COLUMNS}) VALUES (${placeholders}) ON CONFLICT (execution_id) DO NOTHING`,
    executionColumnValues(stored),
  );
  if (inserted.rowCount === 0) {
    throw new StoreError(`execution already exists: ${stored.executionId}`, { executionId: stored.executionId });
  }
  await db.query('INSERT INTO execution_required (execution_id, evaluator) SELECT $1, unnest($2::text[])', [
    stored.executionId,
    [...new Set(stored.requiredEvaluators)],
  ]);
}
