import { InMemoryExecutionStore } from './InMemoryExecutionStore';
import { interruptUnfinished } from './interruptUnfinished';
import { attemptRecord, executionRecord, finishedTrace } from './storeFixtures.testkit';

describe('interruptUnfinished', () => {
  const runId = 'run-00000000000000000000000000000001';
  const at = new Date('2026-03-02T10:20:00.000Z');

  async function storeWithWork(): Promise<InMemoryExecutionStore> {
    const store = new InMemoryExecutionStore();
    await store.saveAttempt(
      attemptRecord({ runId, attemptId: 'attempt-open', testPath: 'tests/a.test.js', outcome: null }),
    );
    await store.saveAttempt(attemptRecord({ runId, attemptId: 'attempt-done', outcome: 'passed' }));
    await store.createExecution(executionRecord({ executionId: 'exec-open', runId, attemptId: 'attempt-open' }));
    await store.createExecution(executionRecord({ executionId: 'exec-done', runId, attemptId: 'attempt-done' }));
    await store.finishExecution(finishedTrace('exec-done', 'completed').finished);
    return store;
  }

  it('finishes open executions interrupted with a readable trace and open attempts failed with the reason', async () => {
    const store = await storeWithWork();
    const closed = await interruptUnfinished(
      store,
      runId,
      (path) => `interrupted: ${path ?? 'no file'} did not finish`,
      () => at,
    );
    expect(closed).toEqual({ executionIds: ['exec-open'], attemptIds: ['attempt-open'] });

    const execution = await store.getExecution('exec-open');
    expect(execution.outcome).toBe('interrupted');
    expect(execution.finishedAt).toBe(at.toISOString());
    const trace = await store.getTrace('exec-open');
    expect(trace.events.map((e) => e.kind)).toEqual(['execution.created', 'diagnostic', 'execution.finished']);
    expect(trace.events.at(-1)?.payload).toMatchObject({ outcome: 'interrupted' });
    const view = await store.getTraceView('exec-open');
    expect(view.diagnostics.length).toBeGreaterThan(0);

    const attempts = await store.listAttempts({ runId });
    const open = attempts.find((a) => a.attemptId === 'attempt-open');
    expect(open).toMatchObject({
      outcome: 'failed',
      failureMessage: 'interrupted: tests/a.test.js did not finish',
      finishedAt: at.toISOString(),
    });
    expect(open?.executionIds).toContain('exec-open');
    expect(attempts.find((a) => a.attemptId === 'attempt-done')?.outcome).toBe('passed');
    expect((await store.getExecution('exec-done')).outcome).toBe('completed');
  });

  it('changes nothing on a run with nothing open', async () => {
    const store = await storeWithWork();
    await interruptUnfinished(store, runId, () => 'x');
    expect(await interruptUnfinished(store, runId, () => 'x')).toEqual({ executionIds: [], attemptIds: [] });
  });
});
