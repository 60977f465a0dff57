import { InMemoryExecutionStore } from '@sf-m3/core';
import { executionRecord } from '@sf-m3/test-utils/store';
import { seedRun } from '../summary/runFixtures.testkit';
import { closeRun } from './closeRun';

describe('closeRun', () => {
  async function closeAbandoned(
    tests: Parameters<typeof seedRun>[1],
    exit: { code: number | null; signal: NodeJS.Signals | null },
  ) {
    const store = new InMemoryExecutionStore();
    const runId = await seedRun(store, tests, { status: 'running' });
    await closeRun(store, (await store.getRun(runId))!, exit);
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

  test('a finished run that agrees with Jest is left as it is', async () => {
    const store = new InMemoryExecutionStore();
    const runId = await seedRun(store, [{ suite: 's', fullName: 's a', outcome: 'failed' }], { status: 'failed' });
    const before = await store.getRun(runId);
    await closeRun(store, before!, { code: 1, signal: null });
    expect(await store.getRun(runId)).toEqual(before);
  });

  test('a run saved passed whose Jest failed (a worker died, a coverage threshold) is saved failed, saying why', async () => {
    const store = new InMemoryExecutionStore();
    const runId = await seedRun(store, [{ suite: 's', fullName: 's a', outcome: 'passed' }], { status: 'passed' });
    await closeRun(store, (await store.getRun(runId))!, { code: 1, signal: null });
    expect(await store.getRun(runId)).toMatchObject({
      status: 'failed',
      problems: [{ kind: 'jest_exit', testPath: null, message: 'Jest exited with status 1 (see its output)' }],
    });
  });

  test('a signal to m3 makes even a finished run interrupted', async () => {
    const store = new InMemoryExecutionStore();
    const runId = await seedRun(store, [{ suite: 's', fullName: 's a', outcome: 'passed' }], { status: 'passed' });
    await closeRun(store, (await store.getRun(runId))!, { code: null, signal: 'SIGINT', received: 'SIGINT' });
    expect(await store.getRun(runId)).toMatchObject({
      status: 'interrupted',
      problems: [{ kind: 'interrupted', message: 'the run was interrupted: m3 test received SIGINT' }],
    });
  });

  test('a killed Jest leaves open work: executions are finished interrupted and open attempts failed', async () => {
    const store = new InMemoryExecutionStore();
    const runId = await seedRun(store, [{ suite: 's', fullName: 's a', outcome: 'passed' }], { status: 'running' });
    await store.saveAttempt({
      attemptId: 'attempt-open',
      runId,
      testPath: 'tests/hang.test.js',
      fullName: 's hangs',
      caseId: null,
      suiteId: null,
      outcome: null,
      durationMs: null,
      failureMessage: null,
      retryIndex: 0,
      executionIds: [],
      startedAt: new Date().toISOString(),
      finishedAt: null,
    });
    await store.createExecution({ ...executionRecord({ runId, attemptId: 'attempt-open' }), executionId: 'exec-open' });
    const closed = await closeRun(store, (await store.getRun(runId))!, { code: null, signal: 'SIGKILL' });
    expect(closed).toMatchObject({ status: 'interrupted', counts: { passed: 1, failed: 1 } });
    expect((await store.getExecution('exec-open')).outcome).toBe('interrupted');
    const open = (await store.listAttempts({ runId })).find((a) => a.attemptId === 'attempt-open');
    expect(open).toMatchObject({
      outcome: 'failed',
      failureMessage: 'interrupted: the run was stopped by SIGKILL while this was running',
      executionIds: ['exec-open'],
    });
  });
});
