// One page of a run's executions, in creation order: the run view lists them page by page, so a run
// with thousands of executions never loads them all.
import type { ExecutionRecord, ExecutionStore } from '@sf-m3/core';
import { attemptOf, executionFailure, failureLine, type FailureContext } from '../shape/executionFailure';
import { EXECUTION_PAGE_SIZE } from './apiPaths';
import { ViewerBadRequest, ViewerNotFound } from './ViewerNotFound';

/** What the execution list shows of one execution. */
export type ExecutionRow = Pick<
  ExecutionRecord,
  'executionId' | 'kind' | 'suiteName' | 'caseId' | 'attemptId' | 'outcome' | 'createdAt' | 'finishedAt' | 'labels'
> & {
  /** `code: message` of why it did not complete; null when it completed. */
  failure: string | null;
  /** What the test around a failed execution did; null when it completed. */
  failureContext: FailureContext | null;
};

/** One page of executions. */
export interface ExecutionsPage {
  runId: string;
  offset: number;
  limit: number;
  total: number;
  executions: ExecutionRow[];
}

/** Parses a page offset: a whole number ≥ 0. */
export function parseOffset(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 0;
  if (!/^\d{1,9}$/.test(raw))
    throw new ViewerBadRequest(`offset must be a whole number ≥ 0, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** Reads one page (`EXECUTION_PAGE_SIZE` executions from `offset`) and the run's total. */
export async function executionsPage(store: ExecutionStore, runId: string, offset: number): Promise<ExecutionsPage> {
  if ((await store.getRun(runId)) === null) throw new ViewerNotFound(`run ${runId} is not in the results database`);
  const [total, records, attempts] = await Promise.all([
    store.countExecutions({ runId }),
    store.listExecutions({ runId, limit: EXECUTION_PAGE_SIZE, offset }),
    store.listAttempts({ runId }),
  ]);
  const executions = records.map((record): ExecutionRow => {
    const { executionId, kind, suiteName, caseId, attemptId, outcome, createdAt, finishedAt, labels } = record;
    const failure = executionFailure(record, attemptOf(record, attempts));
    return {
      executionId,
      kind,
      suiteName,
      caseId,
      attemptId,
      outcome,
      createdAt,
      finishedAt,
      labels,
      failure: failureLine(failure),
      failureContext: failure?.context ?? null,
    };
  });
  return { runId, offset, limit: EXECUTION_PAGE_SIZE, total, executions };
}
