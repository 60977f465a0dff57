import type { ExecutionRecord } from '../records';
import { canonicalInstant, requireId } from '../storeInputs';

/**
 * The columns of a new `executions` row, in the order both SQL stores insert them: its identity,
 * then every label in a column of its own for listing, filters and aggregation, then the whole
 * record as JSON. `metadata` is spelled by the store's dialect (`SqlDialect.metadataColumn`).
 */
export const EXECUTION_COLUMNS = [
  'execution_id',
  'run_id',
  'suite_name',
  'case_id',
  'attempt_id',
  'created_at',
  'finished_at',
  'outcome',
  'label_run_id',
  'label_suite_name',
  'label_case_id',
  'server',
  'transport',
  'harness',
  'model',
  'trial',
  'matrix_id',
  'metadata',
  'record_json',
] as const;

/** One column of `EXECUTION_COLUMNS`. */
export type ExecutionColumn = (typeof EXECUTION_COLUMNS)[number];

/** The values of `EXECUTION_COLUMNS` for `stored` (already checked, `createdAt` canonical), in order; JSON columns as text. */
export function executionColumnValues(stored: ExecutionRecord): (string | null)[] {
  const labels = stored.labels;
  return [
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
  ];
}

/** The record as a SQL store inserts it: its id checked and `createdAt` canonical, before any transaction starts. */
export function checkedExecutionRecord(record: ExecutionRecord): ExecutionRecord {
  requireId(record.executionId, 'executionId');
  return { ...record, createdAt: canonicalInstant(record.createdAt, 'createdAt') };
}
