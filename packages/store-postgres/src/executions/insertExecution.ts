import { StoreError, type ExecutionRecord } from '@sf-m3/core';
import { canonicalInstant, requireId } from '@sf-m3/core/store';
import type { PoolClient } from 'pg';

const json = (value: unknown): string => JSON.stringify(value);

/** The record as it is stored: its id checked and `createdAt` canonical, before any transaction starts. */
export function executionRecordToInsert(record: ExecutionRecord): ExecutionRecord {
  requireId(record.executionId, 'executionId');
  return { ...record, createdAt: canonicalInstant(record.createdAt, 'createdAt') };
}

/**
 * Inserts a new, unfinished execution — its row, with every label in its own column for filters
 * and aggregation, and the evaluators it requires — inside the caller's transaction. An execution
 * id that exists already is refused (nothing is replaced), so the transaction rolls back whole.
 */
export async function insertExecution(db: PoolClient, stored: ExecutionRecord): Promise<void> {
  const labels = stored.labels;
  const inserted = await db.query(
    `INSERT INTO executions (execution_id, run_id, suite_name, case_id, attempt_id, created_at, finished_at, outcome,
       label_run_id, label_suite_name, label_case_id, server, transport, harness, model, trial, matrix_id,
       metadata, record_json)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
     ON CONFLICT (execution_id) DO NOTHING`,
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
      json(labels.metadata ?? {}),
      json(stored),
    ],
  );
  if (inserted.rowCount === 0) {
    throw new StoreError(`execution already exists: ${stored.executionId}`, { executionId: stored.executionId });
  }
  await db.query('INSERT INTO execution_required (execution_id, evaluator) SELECT $1, unnest($2::text[])', [
    stored.executionId,
    [...new Set(stored.requiredEvaluators)],
  ]);
}
