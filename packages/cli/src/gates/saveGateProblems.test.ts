import { InMemoryExecutionStore } from '@sf-m3/core';
import { seedRun } from '../summary/runFixtures.testkit';
import type { GateResult } from '../summary/RunSummary';
import { saveGateProblems } from './saveGateProblems';

const gate = (passed: boolean, message: string): GateResult => ({
  kind: 'min_pass_rate',
  evaluator: 'e.v1',
  threshold: 0.8,
  actual: passed ? 0.9 : 0.5,
  gap: passed ? 0 : 0.3,
  regressions: null,
  source: 'command line',
  passed,
  message,
});

describe('saveGateProblems', () => {
  test('a failed gate makes a passed run failed with a gate problem; passing gates change nothing', async () => {
    const store = new InMemoryExecutionStore();
    const runId = await seedRun(store, [{ suite: 's', fullName: 's a', outcome: 'passed' }]);
    await saveGateProblems(store, runId, [gate(true, 'fine')]);
    expect(await store.getRun(runId)).toMatchObject({ status: 'passed' });
    await saveGateProblems(store, runId, [
      gate(true, 'fine'),
      gate(false, 'min pass rate e.v1 ≥ 80.0%: 50.0% (1/2) is 30.0 pts below'),
    ]);
    expect(await store.getRun(runId)).toMatchObject({
      status: 'failed',
      problems: [
        {
          kind: 'gate',
          testPath: null,
          message: 'gate failed: min pass rate e.v1 ≥ 80.0%: 50.0% (1/2) is 30.0 pts below',
        },
      ],
    });
    await store.close();
  });

  test('an interrupted run stays interrupted', async () => {
    const store = new InMemoryExecutionStore();
    const runId = await seedRun(store, [], { status: 'interrupted' });
    await saveGateProblems(store, runId, [gate(false, 'below')]);
    expect((await store.getRun(runId))!.status).toBe('interrupted');
    await store.close();
  });
});
