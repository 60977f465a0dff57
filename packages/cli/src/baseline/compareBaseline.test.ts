import { InMemoryExecutionStore, Redactor } from '@sf-m3/core';
import { collectRunFacts } from '../summary/collectRunFacts';
import { seedRun } from '../summary/runFixtures.testkit';
import { compareBaseline, testKey } from './compareBaseline';

describe('compareBaseline', () => {
  const redactor = new Redactor();

  test('lists tests that went passed → failed, fixed ones, new/removed counts and falling evaluators', async () => {
    const store = new InMemoryExecutionStore();
    const baselineId = await seedRun(store, [
      {
        suite: 'shipping',
        fullName: 'shipping local',
        outcome: 'passed',
        evaluations: [{ evaluator: 'quality.v1', status: 'passed' }],
      },
      {
        suite: 'shipping',
        fullName: 'shipping regional',
        outcome: 'failed',
        evaluations: [{ evaluator: 'quality.v1', status: 'passed' }],
      },
      {
        suite: 'shipping',
        fullName: 'shipping removed',
        outcome: 'passed',
        evaluations: [{ evaluator: 'steady.v1', status: 'passed' }],
      },
    ]);
    const currentId = await seedRun(store, [
      {
        suite: 'shipping',
        fullName: 'shipping local',
        outcome: 'failed',
        evaluations: [{ evaluator: 'quality.v1', status: 'failed' }],
      },
      {
        suite: 'shipping',
        fullName: 'shipping regional',
        outcome: 'passed',
        evaluations: [{ evaluator: 'quality.v1', status: 'passed' }],
      },
      {
        suite: 'shipping',
        fullName: 'shipping brand new',
        outcome: 'passed',
        evaluations: [{ evaluator: 'steady.v1', status: 'passed' }],
      },
    ]);
    const comparison = compareBaseline(
      await collectRunFacts(store, baselineId, redactor),
      await collectRunFacts(store, currentId, redactor),
      '/project',
    );
    expect(comparison).toEqual({
      baselineRunId: baselineId,
      currentRunId: currentId,
      regressedTests: [
        {
          key: 'tests/shipping.test.ts › shipping local',
          fullName: 'shipping local',
          caseId: null,
          before: 'passed',
          after: 'failed',
        },
      ],
      fixedTests: [
        {
          key: 'tests/shipping.test.ts › shipping regional',
          fullName: 'shipping regional',
          caseId: null,
          before: 'failed',
          after: 'passed',
        },
      ],
      newTests: 1,
      removedTests: 1,
      regressedEvaluators: [{ evaluator: 'quality.v1', baselinePassRate: 1, currentPassRate: 0.5, delta: -0.5 }],
      evaluators: [
        { evaluator: 'quality.v1', baselinePassRate: 1, currentPassRate: 0.5, delta: -0.5 },
        { evaluator: 'steady.v1', baselinePassRate: 1, currentPassRate: 1, delta: 0 },
      ],
    });
    await store.close();
  });

  test('an identical run has no regressions', async () => {
    const store = new InMemoryExecutionStore();
    const tests = [
      {
        suite: 's',
        fullName: 's a',
        outcome: 'passed' as const,
        evaluations: [{ evaluator: 'e', status: 'passed' as const }],
      },
    ];
    const a = await seedRun(store, tests);
    const b = await seedRun(store, tests);
    const comparison = compareBaseline(
      await collectRunFacts(store, a, redactor),
      await collectRunFacts(store, b, redactor),
      '/project',
    );
    expect(comparison.regressedTests).toEqual([]);
    expect(comparison.regressedEvaluators).toEqual([]);
    expect(comparison.newTests + comparison.removedTests).toBe(0);
    await store.close();
  });

  test('testKey makes absolute paths relative to the project', () => {
    expect(testKey({ testPath: '/project/tests/a.test.ts', fullName: 'a b' }, '/project')).toBe(
      'tests/a.test.ts › a b',
    );
    expect(testKey({ testPath: 'tests/a.test.ts', fullName: 'a b' }, '/elsewhere')).toBe('tests/a.test.ts › a b');
  });
});
