import { InMemoryExecutionStore, Redactor } from '@sf-m3/core';
import { seedRun, type SeedTest } from '../../summary/runFixtures.testkit';
import { findFlakyTests } from './findFlakyTests';
import { formatFlakyMarkdown, formatFlakyText } from './formatFlaky';

const test3 = (stable: 'passed' | 'failed', flaky: 'passed' | 'failed', skipped = false): SeedTest[] => [
  { suite: 'shipping', fullName: 'shipping stable', outcome: stable },
  { suite: 'shipping', fullName: 'shipping flaky', outcome: flaky },
  { suite: 'shipping', fullName: 'shipping sometimes skipped', outcome: skipped ? 'skipped' : 'passed' },
];

describe('findFlakyTests', () => {
  let store: InMemoryExecutionStore;
  const runIds: string[] = [];
  beforeAll(async () => {
    store = new InMemoryExecutionStore();
    // Oldest first: the flaky test passes, fails, passes, fails; a fifth run is still in progress.
    runIds.push(await seedRun(store, test3('passed', 'passed')));
    runIds.push(await seedRun(store, test3('passed', 'failed', true)));
    runIds.push(await seedRun(store, test3('passed', 'passed')));
    runIds.push(await seedRun(store, test3('passed', 'failed')));
    await seedRun(store, test3('failed', 'failed'), { status: 'running' });
  });
  afterAll(() => store.close());

  it('lists tests whose final attempts differ across the last K finished runs, with pass counts', async () => {
    const report = await findFlakyTests(store, { runs: 10, cwd: '/project', redactor: new Redactor([]) });
    expect(report.runIds).toEqual([...runIds].reverse());
    expect(report.testsSeen).toBe(3);
    expect(report.tests).toEqual([
      {
        key: 'tests/shipping.test.ts › shipping flaky',
        fullName: 'shipping flaky',
        caseId: null,
        runs: 4,
        passed: 2,
        failed: 2,
        outcomes: ['failed', 'passed', 'failed', 'passed'],
      },
    ]);
    expect(formatFlakyText(report)).toContain('  2/4 passed     ✕✓✕✓  tests/shipping.test.ts › shipping flaky\n');
    expect(formatFlakyMarkdown(report)).toContain('| tests/shipping.test.ts › shipping flaky | 2 / 4 | 2 | ✕✓✕✓ |');
  });

  it('reads only the last K runs: a test stable within them is not flaky', async () => {
    const report = await findFlakyTests(store, { runs: 2, cwd: '/project', redactor: new Redactor([]) });
    expect(report.runIds).toEqual([runIds[3], runIds[2]]);
    expect(report.tests.map((t) => t.outcomes)).toEqual([['failed', 'passed']]);
    const one = await findFlakyTests(store, { runs: 1, cwd: '/project', redactor: new Redactor([]) });
    expect(one.tests).toEqual([]);
    expect(formatFlakyText(one)).toBe(
      `no flaky tests over the last 1 finished run(s) (3 test(s) seen)\nruns        ${runIds[3]} (newest first)\n`,
    );
  });
});
