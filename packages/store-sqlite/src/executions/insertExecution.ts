/**
 * The rows of a new execution: its `executions` row, with the labels copied into columns that
 * listing and aggregation filter and group on beside the whole record as JSON, and one
 * `execution_required` row per evaluator the execution requires.
 */
import { StoreError, type ExecutionRecord } from '@sf-m3/core';
import { sqliteErrorCode, type SqliteConnection } from '../SqliteConnection';

/**
 * Inserts the execution (its `createdAt` already canonical) inside the caller's write transaction;
 * an execution id that is stored already rejects with `StoreError`.
 */
export async function insertExecution(db: SqliteConnection, stored: ExecutionRecord): Promise<void> {
  const labels = stored.labels;
  try {
    await db.run(
      `INSERT INTO executions (execution_id, run_id, suite_name, case_id, attempt_id, created_at, finished_at, outcome,
         label_run_id, label_suite_name, label_case_id, server, transport, harness, model, trial, matrix_id,
         metadata_json, record_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        stored.executionId,
        stored.runId,
        stored.suiteName,
        stored.caseId,
        stored.attemptId,
        stored.createdAt,
        stored.finishedAt,
        stored.outcome,
        labels.runId,
        labels.suiteName,
        labels.caseId,
        labels.server,
        labels.transport,
        labels.harness,
        labels.model,
        labels.trial,
        labels.matrixId,
        JSON.stringify(labels.metadata ?? {}),
        JSON.stringify(stored),
      ],
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
