// The run the cassette-mark checks read: one run with a replayed, a recorded and a live execution,
// stored through the store's own finish (the snapshot's `metadata.cassette` becomes the label the
// viewer's mark reads, contract §24). Its run starts after every native run of
// `seedNativeRuns`, so stored beside them it is the newest run and no native run's baseline.
import type { ExecutionStore } from '@sf-m3/core';
import { attemptRecord, executionRecord } from '../../packages/core/src/store/storeFixtures.testkit';
import { buildNativeTrace } from '../../packages/cli/src/ui/nativeRuns.testkit';

/** The run id `seedCassetteRun` stores. */
export const cassetteRunId = 'run-cassettes';

/** Execution id → how a cassette served it (null: live, no cassette). */
export const cassetteUses = { 'exec-replayed': 'replayed', 'exec-recorded': 'recorded', 'exec-live': null } as const;

/** Stores the run of `cassetteUses`: three passed claude_code executions, one per minute. */
export async function seedCassetteRun(store: ExecutionStore): Promise<void> {
  await store.saveRun({
    runId: cassetteRunId,
    label: null,
    startedAt: '2026-12-04T09:00:00.000Z',
    finishedAt: '2026-12-04T09:05:00.000Z',
    status: 'passed',
    argv: [],
    counts: { passed: 3, failed: 0, skipped: 0, todo: 0 },
  });
  let minute = 0;
  for (const [executionId, use] of Object.entries(cassetteUses)) {
    minute += 1;
    const createdAt = `2026-12-04T09:0${minute}:00.000Z`;
    const labels = {
      harness: 'claude_code',
      model: 'gpt-4o-mini',
      trial: String(minute),
      server: 'shop',
      metadata: {},
    };
    const execution = executionRecord({
      executionId,
      runId: cassetteRunId,
      suiteName: 'cassettes',
      caseId: 'quote',
      kind: 'agent',
      createdAt,
      labels: labels as never,
    });
    const attempt = attemptRecord({
      runId: cassetteRunId,
      fullName: `cassettes quote ${minute}`,
      executionIds: [executionId],
    });
    await store.saveAttempt(attempt);
    await store.createExecution({ ...execution, attemptId: attempt.attemptId });
    const trace = buildNativeTrace({
      executionId,
      runtime: 'claude_code',
      session: { model: 'gpt-4o-mini' },
      usage: { inputTokens: 10 },
      tools: [],
      reasoning: { text: 'quote it' },
    });
    await store.finishExecution({
      executionId,
      outcome: 'completed',
      finishedAt: createdAt,
      snapshot: { lifecycle: 'finished', ...(use === null ? {} : { metadata: { cassette: use } }) },
      trace,
      evidence: [],
    });
  }
}
