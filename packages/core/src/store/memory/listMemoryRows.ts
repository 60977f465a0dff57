import type { EvaluationResult } from '../../evaluation/EvaluationResult';
import { isLaterRow } from '../aggregation/lineage';
import type { ExecutionListFilter } from '../ExecutionStore';
import type { AttemptRecord, ExecutionRecord, RunRecord } from '../records';
import type { MemoryTables } from './MemoryTables';

/**
 * The orders and filters `InMemoryExecutionStore` lists runs, attempts, executions and evaluations
 * in, the same as the SQLite store's queries. Each returns the stored rows themselves: copy them before handing
 * them out.
 */

/** Every run, newest first (by start time, then run id descending), as `listRuns` returns them. */
export function runsNewestFirst(tables: MemoryTables): RunRecord[] {
  return [...tables.runs.values()].sort((a, b) =>
    a.startedAt === b.startedAt ? (a.runId < b.runId ? 1 : -1) : a.startedAt < b.startedAt ? 1 : -1,
  );
}

/** The attempts of `runId`, by start time, then attempt id. */
export function attemptsOfRun(tables: MemoryTables, runId: string): AttemptRecord[] {
  return [...tables.attempts.values()]
    .filter((a) => a.runId === runId)
    .sort((a, b) => (a.startedAt === b.startedAt ? cmp(a.attemptId, b.attemptId) : cmp(a.startedAt, b.startedAt)));
}

/**
 * The executions `filter` picks, by creation time, then execution id, paged by its `offset` and
 * `limit`. An attempt's executions are those naming it and those it lists (linked either way).
 */
export function executionsMatching(tables: MemoryTables, filter: ExecutionListFilter): ExecutionRecord[] {
  const linked =
    filter.attemptId === undefined ? null : new Set(tables.attempts.get(filter.attemptId)?.executionIds ?? []);
  const offset = filter.offset ?? 0;
  const matching = [...tables.executions.values()]
    .filter((e) => filter.runId === undefined || e.runId === filter.runId)
    .filter((e) => linked === null || e.attemptId === filter.attemptId || linked.has(e.executionId))
    .sort((a, b) => (a.createdAt === b.createdAt ? cmp(a.executionId, b.executionId) : cmp(a.createdAt, b.createdAt)));
  return matching.slice(offset, filter.limit === undefined ? undefined : offset + filter.limit);
}

/** The latest row of each lineage `filter` picks, oldest first (`isLaterRow` order). */
export function latestEvaluationsMatching(
  tables: MemoryTables,
  filter: { runId?: string; executionId?: string; evaluator?: string },
): EvaluationResult[] {
  return [...tables.latest.values()]
    .filter((s) => filter.runId === undefined || s.labels.runId === filter.runId)
    .filter((s) => filter.executionId === undefined || s.result.executionId === filter.executionId)
    .filter((s) => filter.evaluator === undefined || s.result.evaluator === filter.evaluator)
    .map((s) => s.result)
    .sort((a, b) => (isLaterRow(a, b) ? 1 : -1));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
