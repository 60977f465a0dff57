import { InMemoryExecutionStore } from '@sf-m3/core';
import { seedRun } from '../summary/runFixtures.testkit';
import { finishAbandonedRun } from './test';

describe('finishAbandonedRun', () => {
  async function closeAbandoned(
    tests: Parameters<typeof seedRun>[1],
    exit: { code: number | null; signal: NodeJS.Signals | null },
  ) {
    const store = new InMemoryExecutionStore();
    const runId = await seedRun(store, tests, { status: 'running' });
    await finishAbandonedRun(store, (await store.getRun(runId))!, exit);
    return (await store.getRun(runId))!;
  }

  test('a test whose retry passed does not fail the run (its last try decides, as in the summary)', async () => {
    const run = await closeAbandoned(
      [
        { suite: 'shipping', fullName: 'shipping flaky', outcome: 'failed', retryIndex: 0 },
        { suite: 'shipping', fullName: 'shipping flaky', outcome: 'passed', retryIndex: 1 },
      ],
      { code: 0, signal: null },
    );
    expect(run.status).toBe('passed');
    expect(run.finishedAt).not.toBeNull();
    expect(run.counts).toEqual({ passed: 1, failed: 1, skipped: 0, todo: 0 });
  });

  test('a last try that failed, a failing Jest exit or a signal decide the status', async () => {
    const failedLast = [
      { suite: 'shipping', fullName: 'shipping flaky', outcome: 'passed' as const, retryIndex: 0 },
      { suite: 'shipping', fullName: 'shipping flaky', outcome: 'failed' as const, retryIndex: 1 },
    ];
    expect((await closeAbandoned(failedLast, { code: 0, signal: null })).status).toBe('failed');
    const green = [{ suite: 'shipping', fullName: 'shipping quotes', outcome: 'passed' as const }];
    expect((await closeAbandoned(green, { code: 1, signal: null })).status).toBe('failed');
    expect((await closeAbandoned(green, { code: null, signal: 'SIGTERM' })).status).toBe('interrupted');
  });

  test('a run that was finished is left as it is', async () => {
    const store = new InMemoryExecutionStore();
    const runId = await seedRun(store, [{ suite: 's', fullName: 's a', outcome: 'failed' }], { status: 'passed' });
    const before = await store.getRun(runId);
    await finishAbandonedRun(store, before!, { code: 1, signal: null });
    expect(await store.getRun(runId)).toEqual(before);
  });
});
