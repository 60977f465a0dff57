// Contract cases for execution paging (the viewer pages through a run's executions).
import { describe, expect, it } from '@jest/globals';
import type { ExecutionStore } from '../ExecutionStore';
import { attemptRecord, executionRecord } from './storeFixtures';

/** Registers the paging cases; `store()` is the contract's fresh store of the current test. */
export function describeExecutionPagingContract(store: () => ExecutionStore): void {
  describe('execution paging', () => {
    it('pages executions in creation order with limit and offset, and counts them', async () => {
      const created = ['10', '11', '12', '13', '14'].map((minute) =>
        executionRecord({ runId: 'run-page', createdAt: `2026-03-02T10:${minute}:00.000Z` }),
      );
      for (const record of [...created].reverse()) await store().createExecution(record);
      await store().createExecution(executionRecord({ runId: 'run-other' }));
      const ids = created.map((e) => e.executionId);
      const page = async (limit?: number, offset?: number) =>
        (await store().listExecutions({ runId: 'run-page', limit, offset })).map((e) => e.executionId);

      expect(await page()).toEqual(ids);
      expect(await page(2)).toEqual(ids.slice(0, 2));
      expect(await page(2, 2)).toEqual(ids.slice(2, 4));
      expect(await page(2, 4)).toEqual(ids.slice(4));
      expect(await page(undefined, 3)).toEqual(ids.slice(3));
      expect(await page(5, 10)).toEqual([]);
      expect(await store().countExecutions({ runId: 'run-page' })).toBe(5);
      expect(await store().countExecutions({ runId: 'run-none' })).toBe(0);
      expect(await store().countExecutions({})).toBe(6);
    });

    it('counts and pages the executions of one attempt, linked directly or by the attempt', async () => {
      const attempt = attemptRecord({ runId: 'run-page' });
      const direct = executionRecord({ runId: 'run-page', attemptId: attempt.attemptId });
      const listed = executionRecord({ runId: 'run-page', createdAt: '2026-03-02T10:20:00.000Z' });
      await store().saveAttempt({ ...attempt, executionIds: [listed.executionId] });
      await store().createExecution(direct);
      await store().createExecution(listed);
      await store().createExecution(executionRecord({ runId: 'run-page' }));
      expect(await store().countExecutions({ attemptId: attempt.attemptId })).toBe(2);
      expect(
        (await store().listExecutions({ attemptId: attempt.attemptId, limit: 1, offset: 1 })).map((e) => e.executionId),
      ).toEqual([listed.executionId]);
    });
  });
}
