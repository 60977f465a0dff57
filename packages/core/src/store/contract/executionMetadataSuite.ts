// Contract cases for the snapshot's metadata becoming labels when an execution finishes (contract
// §24: `metadata.cassette` of a replayed, recorded or mixed execution is a `metadata.<key>` label).
import { describe, expect, it } from '@jest/globals';
import type { ExecutionStore } from '../ExecutionStore';
import type { ExecutionRecord } from '../records';
import { attemptRecord, executionRecord, finishedTrace, storedEvaluation } from './storeFixtures';

/** Finishes `record` with `metadata` on its snapshot (none when undefined). */
async function finishWith(store: ExecutionStore, record: ExecutionRecord, metadata?: Record<string, string>) {
  const { finished } = finishedTrace(record.executionId);
  const snapshot = metadata === undefined ? finished.snapshot : { ...finished.snapshot, metadata };
  await store.finishExecution({ ...finished, snapshot });
}

/** Registers the metadata-label cases; `store()` is the contract's fresh store of the current test. */
export function describeExecutionMetadataContract(store: () => ExecutionStore): void {
  describe('execution metadata labels', () => {
    it("adds the finished snapshot's metadata to the execution's metadata labels", async () => {
      const labels = { metadata: { team: 'search', cassette: 'stale' } } as unknown as ExecutionRecord['labels'];
      const replayed = executionRecord({ runId: 'run-meta', labels, createdAt: '2026-03-02T10:15:00.000Z' });
      const live = executionRecord({ runId: 'run-meta', labels, createdAt: '2026-03-02T10:16:00.000Z' });
      await store().createExecution(replayed);
      await store().createExecution(live);
      await finishWith(store(), replayed, { cassette: 'replayed' });
      await finishWith(store(), live);

      const read = await store().getExecution(replayed.executionId);
      expect(read.labels).toEqual({ ...replayed.labels, metadata: { team: 'search', cassette: 'replayed' } });
      expect(read.snapshot.metadata).toEqual({ cassette: 'replayed' });
      expect((await store().getExecution(live.executionId)).labels).toEqual(live.labels);
      const listed = await store().listExecutions({ runId: 'run-meta' });
      expect(listed.map((e) => e.labels.metadata.cassette)).toEqual(['replayed', 'stale']);
    });

    it('filters and groups by metadata.cassette, rows and missing requirements alike', async () => {
      const evaluator = 'cassette.answer.v1';
      const runId = 'run-cassette';
      const attempt = attemptRecord({ runId });
      await store().saveAttempt(attempt);
      const uses = ['replayed', 'replayed', 'recorded', 'mixed', null] as const;
      for (const [i, use] of uses.entries()) {
        const record = executionRecord({ runId, attemptId: attempt.attemptId, requiredEvaluators: [evaluator] });
        await store().createExecution(record);
        await finishWith(store(), record, use === null ? undefined : { cassette: use });
        // The last replayed execution never got its required verdict: a requirement from its labels.
        if (i === 1) continue;
        const finished = await store().getExecution(record.executionId);
        const status = use === 'recorded' ? 'failed' : 'passed';
        await store().saveEvaluation(storedEvaluation({ evaluator, status, required: true }, {}, finished));
      }

      const grouped = await store().aggregateEvaluations({
        filters: { evaluator: [evaluator], runId: [runId] },
        groupBy: ['metadata.cassette'],
      });
      const byUse = grouped.groups.map((g) => [
        g.key['metadata.cassette'],
        g.values.executionCount,
        g.values.passedCount,
        g.values.expectedCount,
        g.values.missingRequiredCount,
      ]);
      expect(byUse).toEqual([
        [null, 1, 1, 1, 0],
        ['mixed', 1, 1, 1, 0],
        ['recorded', 1, 0, 1, 0],
        ['replayed', 2, 1, 2, 1],
      ]);
      const notReplayed = await store().aggregateEvaluations({
        filters: { evaluator: [evaluator], runId: [runId], 'metadata.cassette': ['recorded', 'mixed', null] },
      });
      expect(notReplayed.totals).toMatchObject({ executionCount: 3, expectedCount: 3, passedCount: 2 });
    });

    // contract §24: timing statistics and usage/cost totals leave replayed executions out. The
    // report has none today (counts, pass rates and scores only, and a replayed verdict counts like
    // any other), so this pins its figures: a timing, usage or cost figure added here must leave
    // `metadata.cassette = replayed` executions out, and update this list once it does.
    it('reports no timing, usage or cost figure a replayed execution could skew', async () => {
      const record = executionRecord({ runId: 'run-figures' });
      await store().createExecution(record);
      await finishWith(store(), record, { cassette: 'replayed' });
      await store().saveEvaluation(
        storedEvaluation({ evaluator: 'figures.v1' }, {}, await store().getExecution(record.executionId)),
      );
      const report = await store().aggregateEvaluations({ filters: { evaluator: ['figures.v1'] } });
      expect(Object.keys(report.totals).sort()).toEqual([
        'averageScore',
        'caseCount',
        'casesAllPassed',
        'casesAnyPassed',
        'evaluationCount',
        'executionCount',
        'expectedCount',
        'missingRequiredCount',
        'passRate',
        'passRateInterval',
        'passedCount',
        'pendingRequiredCount',
        'scoreCount',
        'statusCounts',
      ]);
      expect(report.totals).toMatchObject({ passedCount: 1, expectedCount: 1, executionCount: 1 });
    });
  });
}
