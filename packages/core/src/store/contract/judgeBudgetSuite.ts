// Contract cases of `reserveJudgeRequest` (the judge budget of `m3 test --judge-max-requests`),
// shared by every ExecutionStore; registered from executionStoreSuite.ts.
import { describe, expect, it } from '@jest/globals';
import { ModelValidationError } from '../../errors/M3Error';
import type { ExecutionStore } from '../ExecutionStore';

/** Registers the judge budget cases; `store()` is the fresh store of the current test. */
export function describeJudgeBudgetContract(store: () => ExecutionStore): void {
  describe('judge budget (reserveJudgeRequest)', () => {
    it('grants exactly `limit` requests per run, then refuses without counting', async () => {
      const granted: boolean[] = [];
      for (let i = 0; i < 5; i++) granted.push(await store().reserveJudgeRequest('run-budget', 3));
      expect(granted).toEqual([true, true, true, false, false]);
      // Refusals counted nothing: a larger limit later grants exactly the difference.
      expect(await store().reserveJudgeRequest('run-budget', 4)).toBe(true);
      expect(await store().reserveJudgeRequest('run-budget', 4)).toBe(false);
    });

    it('counts each run apart', async () => {
      expect(await store().reserveJudgeRequest('run-a', 1)).toBe(true);
      expect(await store().reserveJudgeRequest('run-a', 1)).toBe(false);
      expect(await store().reserveJudgeRequest('run-b', 1)).toBe(true);
    });

    it('never overshoots under concurrent callers', async () => {
      const results = await Promise.all(Array.from({ length: 40 }, () => store().reserveJudgeRequest('run-race', 7)));
      expect(results.filter(Boolean)).toHaveLength(7);
    });

    it('treats limit 0 as spent and rejects a limit that is not a whole number >= 0', async () => {
      expect(await store().reserveJudgeRequest('run-zero', 0)).toBe(false);
      expect(await store().reserveJudgeRequest('run-zero', 1)).toBe(true);
      for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
        await expect(store().reserveJudgeRequest('run-bad', bad)).rejects.toThrow(ModelValidationError);
      }
      await expect(store().reserveJudgeRequest('', 3)).rejects.toThrow(/runId/);
    });

    it('counts the granted requests of a run, refusals and other runs aside (countJudgeRequests)', async () => {
      const count = (runId: string) => {
        const read = store().countJudgeRequests;
        if (read === undefined) throw new Error('this store does not implement countJudgeRequests');
        return read.call(store(), runId);
      };
      expect(await count('run-count')).toBe(0);
      for (let i = 0; i < 4; i++) await store().reserveJudgeRequest('run-count', 2);
      await store().reserveJudgeRequest('run-other', 5);
      expect(await count('run-count')).toBe(2);
      expect(await count('run-other')).toBe(1);
      await expect(count('')).rejects.toThrow(/runId/);
    });
  });
}
