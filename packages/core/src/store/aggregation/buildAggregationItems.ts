import type { StoredEvaluation } from '../ExecutionStore';
import type { FixedLabel } from '../AggregationQuery';
import type { ExecutionRecord } from '../records';
import type { AggregationItem } from './AggregationItem';

/** The case a row is counted under: the evaluation's own case, else its execution's. */
export function caseIdOfEvaluation(stored: StoredEvaluation): string | null {
  return stored.result.caseId ?? stored.labels.caseId ?? null;
}

/** An aggregation item for the latest row of a lineage. */
export function evaluationItem(stored: StoredEvaluation, executionCreatedAt: string | null): AggregationItem {
  const { result, labels } = stored;
  const caseId = caseIdOfEvaluation(stored);
  const fixed: Record<FixedLabel, string | null> = {
    evaluator: result.evaluator,
    runId: labels.runId,
    suiteName: labels.suiteName,
    caseId,
    executionId: result.executionId,
    turnId: result.turnId,
    status: result.status,
    server: labels.server,
    tool: labels.tool,
    transport: labels.transport,
    harness: labels.harness,
    model: labels.model,
    trial: labels.trial,
    judgeModel: labels.judgeModel,
    rubricId: labels.rubricId,
    matrixId: labels.matrixId,
  };
  return {
    kind: 'row',
    status: result.status,
    score: result.score,
    executionId: result.executionId,
    caseId,
    executionCreatedAt: executionCreatedAt ?? result.createdAt,
    labels: fixed,
    metadata: { ...labels.metadata },
  };
}

/**
 * A synthetic item for a required evaluator an execution has not produced: labelled like a row of
 * that execution (no status, tool, judge model or rubric), `missing` or `pending`.
 */
export function requirementItem(
  execution: ExecutionRecord,
  evaluator: string,
  kind: 'missing' | 'pending',
): AggregationItem {
  const labels = execution.labels;
  const caseId = labels.caseId ?? execution.caseId;
  const fixed: Record<FixedLabel, string | null> = {
    evaluator,
    runId: labels.runId ?? execution.runId,
    suiteName: labels.suiteName ?? execution.suiteName,
    caseId,
    executionId: execution.executionId,
    turnId: null,
    status: null,
    server: labels.server,
    tool: null,
    transport: labels.transport,
    harness: labels.harness,
    model: labels.model,
    trial: labels.trial,
    judgeModel: null,
    rubricId: null,
    matrixId: labels.matrixId,
  };
  return {
    kind,
    status: null,
    score: null,
    executionId: execution.executionId,
    caseId,
    executionCreatedAt: execution.createdAt,
    labels: fixed,
    metadata: { ...labels.metadata },
  };
}
