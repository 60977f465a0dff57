import type { FixedLabel } from '../AggregationQuery';

/**
 * The `evaluations` column of each fixed aggregation label (contract §10): every label of a
 * latest row is a column of its own, named the same in both SQL stores.
 */
export const EVALUATION_LABEL_COLUMNS: Readonly<Record<FixedLabel, string>> = {
  evaluator: 'evaluator',
  runId: 'run_id',
  suiteName: 'suite_name',
  caseId: 'case_id',
  executionId: 'execution_id',
  turnId: 'turn_id',
  status: 'status',
  server: 'server',
  tool: 'tool',
  transport: 'transport',
  harness: 'harness',
  model: 'model',
  trial: 'trial',
  judgeModel: 'judge_model',
  rubricId: 'rubric_id',
  matrixId: 'matrix_id',
};

/**
 * The `executions` columns that hold an execution's own labels; the labels an execution does not
 * carry (turn, status, tool, judge model, rubric) are absent. `runId`, `suiteName` and `caseId`
 * may be relabelled (`label_*`), falling back to the execution's own identity.
 */
export const EXECUTION_LABEL_COLUMNS = {
  runId: 'label_run_id',
  suiteName: 'label_suite_name',
  caseId: 'label_case_id',
  server: 'server',
  transport: 'transport',
  harness: 'harness',
  model: 'model',
  trial: 'trial',
  matrixId: 'matrix_id',
} as const satisfies Partial<Record<FixedLabel, string>>;
