import { InMemoryExecutionStore } from '../store/InMemoryExecutionStore';
import { executionRecord, finishedTrace } from '../store/storeFixtures.testkit';
import { ExecutionLabelCache } from './ExecutionLabelCache';

function setup() {
  const store = new InMemoryExecutionStore();
  const reads = jest.spyOn(store, 'getExecution');
  const cache = new ExecutionLabelCache(store);
  return { store, reads, cache };
}

describe('ExecutionLabelCache', () => {
  test('reads a finished execution once, also across concurrent asks', async () => {
    const { store, reads, cache } = setup();
    const record = executionRecord({ caseId: 'labels/once' });
    await store.createExecution(record);
    await store.finishExecution(finishedTrace(record.executionId).finished);
    const [first, second] = await Promise.all([cache.labelsOf(record.executionId), cache.labelsOf(record.executionId)]);
    expect(first).toEqual(record.labels);
    expect(second).toBe(first);
    expect(await cache.labelsOf(record.executionId)).toEqual(record.labels);
    expect(reads.mock.calls.filter(([id]) => id === record.executionId)).toHaveLength(1);
  });

  test("asks again while the execution runs, so its finish's metadata labels (cassette) are seen", async () => {
    const { store, reads, cache } = setup();
    const record = executionRecord({ caseId: 'labels/running', labels: { metadata: { team: 'a' } } as never });
    await store.createExecution(record);
    expect((await cache.labelsOf(record.executionId))?.metadata).toEqual({ team: 'a' });
    const { finished } = finishedTrace(record.executionId);
    await store.finishExecution({
      ...finished,
      snapshot: { ...finished.snapshot, metadata: { cassette: 'replayed' } },
    });
    expect((await cache.labelsOf(record.executionId))?.metadata).toEqual({ team: 'a', cassette: 'replayed' });
    expect((await cache.labelsOf(record.executionId))?.metadata).toEqual({ team: 'a', cassette: 'replayed' });
    expect(reads.mock.calls.filter(([id]) => id === record.executionId)).toHaveLength(2);
  });

  test('does not remember an execution the store did not know yet', async () => {
    const { store, reads, cache } = setup();
    const record = executionRecord({ caseId: 'labels/later' });
    expect(await cache.labelsOf(record.executionId)).toBeNull();
    expect(await cache.labelsOf(record.executionId)).toBeNull();
    await store.createExecution(record);
    await store.finishExecution(finishedTrace(record.executionId).finished);
    expect(await cache.labelsOf(record.executionId)).toEqual(record.labels);
    expect(await cache.labelsOf(record.executionId)).toEqual(record.labels);
    expect(reads.mock.calls.filter(([id]) => id === record.executionId)).toHaveLength(3);
  });

  test('keeps executions apart', async () => {
    const { store, cache } = setup();
    const a = executionRecord({ caseId: 'labels/a' });
    const b = executionRecord({ caseId: 'labels/b' });
    await store.createExecution(a);
    await store.createExecution(b);
    expect((await cache.labelsOf(a.executionId))?.caseId).toBe('labels/a');
    expect((await cache.labelsOf(b.executionId))?.caseId).toBe('labels/b');
  });
});
