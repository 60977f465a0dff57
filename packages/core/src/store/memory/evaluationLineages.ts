import { StoreError } from '../../errors/M3Error';
import type { AggregationItem } from '../aggregation/AggregationItem';
import { evaluationItem, requirementItem } from '../aggregation/buildAggregationItems';
import { isLaterRow, lineageKey } from '../aggregation/lineage';
import type { StoredEvaluation } from '../ExecutionStore';
import { canonicalInstant, requireId } from '../storeInputs';
import { copy, type MemoryTables } from './MemoryTables';

/**
 * The in-memory store's latest-row-per-lineage bookkeeping: appending an evaluation row (append-only
 * ids, the execution time fixed at write, sticky required, the later row wins its lineage) and the
 * items the shared aggregation engine counts from those rows.
 */

/** `saveEvaluation`: checks and appends one row; throws `StoreError` when its id was saved before. */
export function appendEvaluation(tables: MemoryTables, evaluation: StoredEvaluation): void {
  const { result } = evaluation;
  requireId(result.evaluationId, 'evaluationId');
  requireId(result.evaluator, 'evaluator');
  if (tables.evaluationIds.has(result.evaluationId)) {
    throw new StoreError(`evaluation already exists: ${result.evaluationId} (rows are append-only)`, {
      evaluationId: result.evaluationId,
    });
  }
  const stored = copy({
    ...evaluation,
    result: { ...result, createdAt: canonicalInstant(result.createdAt, 'createdAt') },
  });
  tables.evaluationIds.add(result.evaluationId);
  const execution = result.executionId === null ? undefined : tables.executions.get(result.executionId);
  tables.executionTimes.set(result.evaluationId, execution?.createdAt ?? stored.result.createdAt);
  const key = lineageKey(result);
  if (result.required) tables.requiredLineages.add(key);
  const previous = tables.latest.get(key);
  if (previous === undefined || isLaterRow(stored.result, previous.result)) tables.latest.set(key, stored);
}

/** Latest lineage rows plus a synthetic item per required evaluator an execution has not produced. */
export function* aggregationItemsOf(tables: MemoryTables): Generator<AggregationItem> {
  const produced = new Set<string>();
  for (const stored of tables.latest.values()) {
    produced.add(JSON.stringify([stored.result.executionId, stored.result.evaluator]));
    yield evaluationItem(stored, tables.executionTimes.get(stored.result.evaluationId) ?? null);
  }
  const running = executionsOfRunningAttempts(tables);
  for (const execution of tables.executions.values()) {
    for (const evaluator of new Set(execution.requiredEvaluators)) {
      if (produced.has(JSON.stringify([execution.executionId, evaluator]))) continue;
      const pending = execution.outcome === null || running.has(execution.executionId);
      yield requirementItem(execution, evaluator, pending ? 'pending' : 'missing');
    }
  }
}

/** Executions linked (either way) to an attempt whose outcome is not known yet. */
function executionsOfRunningAttempts(tables: MemoryTables): Set<string> {
  const running = new Set<string>();
  for (const attempt of tables.attempts.values()) {
    if (attempt.outcome === null) for (const id of attempt.executionIds) running.add(id);
  }
  for (const execution of tables.executions.values()) {
    const attempt = execution.attemptId === null ? undefined : tables.attempts.get(execution.attemptId);
    if (attempt !== undefined && attempt.outcome === null) running.add(execution.executionId);
  }
  return running;
}
