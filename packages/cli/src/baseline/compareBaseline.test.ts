import { InMemoryExecutionStore, Redactor } from '@sf-m3/core';
import { seedRun, type SeedTest } from '../summary/runFixtures.testkit';
import { compareBaseline, testKey } from './compareBaseline';
import { readComparedRun } from './readComparedRun';

/** `passed` of `total` trials of one case, each its own test with one `evaluator` evaluation. */
function trials(evaluator: string, passed: number, total: number, caseId = 'noisy::answers'): SeedTest[] {
  return Array.from({ length: total }, (_, i) => ({
    suite: 'noisy',
    fullName: `noisy answers [trial ${i + 1}/${total}]`,
    caseId,
    outcome: 'passed' as const,
    evaluations: [{ evaluator, status: i < passed ? ('passed' as const) : ('failed' as const) }],
  }));
}

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
      await readComparedRun(store, baselineId, redactor),
      await readComparedRun(store, currentId, redactor),
      '/project',
    );
    const quality = {
      evaluator: 'quality.v1',
      scope: 'evaluator',
      baselinePassRate: 1,
      currentPassRate: 0.5,
      delta: -0.5,
      baseline: { passRate: 1, passed: 2, expected: 2 },
      current: { passRate: 0.5, passed: 1, expected: 2 },
      pValue: 1,
      significance: 'within noise',
    };
    expect(comparison).toMatchObject({
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
      // 2/2 → 1/2 is a drop Fisher's test cannot tell from noise: no regressed evaluator.
      regressedEvaluators: [],
      regressions: [],
      dropsWithinNoise: 1,
      evaluators: [quality, { evaluator: 'steady.v1', baselinePassRate: 1, currentPassRate: 1, delta: 0, pValue: 1 }],
      // The one suite and the case-less rows hold every evaluation: they repeat the run-wide rows.
      groups: [],
      interfaceChanges: { compared: 0, changes: [], notComparable: [] },
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
      await readComparedRun(store, a, redactor),
      await readComparedRun(store, b, redactor),
      '/project',
    );
    expect(comparison.regressedTests).toEqual([]);
    expect(comparison.regressedEvaluators).toEqual([]);
    expect(comparison.newTests + comparison.removedTests).toBe(0);
    await store.close();
  });

  test('10/10 → 9/10 is a drop within noise; 20/20 → 8/20 is a significant regression', async () => {
    const store = new InMemoryExecutionStore();
    const compare = async (before: SeedTest[], after: SeedTest[], alpha?: number) =>
      compareBaseline(
        await readComparedRun(store, await seedRun(store, before), redactor),
        await readComparedRun(store, await seedRun(store, after), redactor),
        '/project',
        alpha,
      );
    const noise = await compare(trials('noisy.v1', 10, 10), trials('noisy.v1', 9, 10));
    expect(noise.regressions).toEqual([]);
    expect(noise.dropsWithinNoise).toBe(1);
    expect(noise.evaluators[0]).toMatchObject({ significance: 'within noise', pValue: 1 });
    expect(noise.evaluators[0]!.delta).toBeCloseTo(-0.1, 12);

    const real = await compare(trials('noisy.v1', 20, 20), trials('noisy.v1', 8, 20));
    expect(real.regressions).toHaveLength(1);
    expect(real.regressedEvaluators).toHaveLength(1);
    expect(real.regressions[0]).toMatchObject({
      evaluator: 'noisy.v1',
      scope: 'evaluator',
      baseline: { passed: 20, expected: 20 },
      current: { passed: 8, expected: 20 },
      significance: 'significant',
    });
    expect(real.regressions[0]!.pValue).toBeCloseTo(4.5095e-5, 8);

    // A stricter alpha turns the same drop into noise.
    const strict = await compare(trials('noisy.v1', 20, 20), trials('noisy.v1', 8, 20), 1e-5);
    expect(strict.regressions).toEqual([]);
    expect(strict.dropsWithinNoise).toBe(1);
    await store.close();
  });

  test('a drop in one case is tested on its own counts, beside the run-wide row', async () => {
    const store = new InMemoryExecutionStore();
    const before = [...trials('e.v1', 12, 12, 'noisy::a'), ...trials('e.v1', 12, 12, 'noisy::b')];
    const after = [...trials('e.v1', 2, 12, 'noisy::a'), ...trials('e.v1', 12, 12, 'noisy::b')];
    const comparison = compareBaseline(
      await readComparedRun(store, await seedRun(store, before), redactor),
      await readComparedRun(store, await seedRun(store, after), redactor),
      '/project',
    );
    expect(comparison.groups).toEqual([
      expect.objectContaining({
        scope: 'case',
        caseId: 'noisy::a',
        baseline: { passRate: 1, passed: 12, expected: 12 },
        current: { passRate: 2 / 12, passed: 2, expected: 12 },
        significance: 'significant',
      }),
    ]);
    expect(comparison.regressions.map((r) => r.scope)).toEqual(['evaluator', 'case']);
    await store.close();
  });

  test('agent rows are compared per harness and per harness and model', async () => {
    const store = new InMemoryExecutionStore();
    const agentTrials = (model: string, passed: number, total: number): SeedTest[] =>
      trials('agent.v1', passed, total, `agents::${model}`).map((t, i) => ({
        ...t,
        fullName: `${t.fullName} ${model}`,
        agent: { harness: 'openai', model, trial: i + 1 },
      }));
    const comparison = compareBaseline(
      await readComparedRun(
        store,
        await seedRun(store, [...agentTrials('careful', 10, 10), ...agentTrials('fast', 10, 10)]),
        redactor,
      ),
      await readComparedRun(
        store,
        await seedRun(store, [...agentTrials('careful', 10, 10), ...agentTrials('fast', 1, 10)]),
        redactor,
      ),
      '/project',
    );
    const rows = comparison.groups.map((g) => [g.scope, g.harness, g.model, g.caseId, g.significance]);
    // The one harness holds every evaluation, so its row repeats the run-wide one and is left out.
    expect(rows).toEqual([
      ['case', null, null, 'agents::fast', 'significant'],
      ['model', 'openai', 'fast', null, 'significant'],
    ]);
    expect(comparison.groups[1]).toMatchObject({
      baseline: { passed: 10, expected: 10 },
      current: { passed: 1, expected: 10 },
    });
    expect(comparison.evaluators[0]).toMatchObject({
      baseline: { passed: 20, expected: 20 },
      current: { passed: 11, expected: 20 },
      significance: 'significant',
    });
    await store.close();
  });

  test('testKey makes absolute paths relative to the project', () => {
    expect(testKey({ testPath: '/project/tests/a.test.ts', fullName: 'a b' }, '/project')).toBe(
      'tests/a.test.ts › a b',
    );
    expect(testKey({ testPath: 'tests/a.test.ts', fullName: 'a b' }, '/elsewhere')).toBe('tests/a.test.ts › a b');
  });
});
