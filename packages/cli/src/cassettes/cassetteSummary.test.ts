import type { ExecutionRecord } from '@sf-m3/core';
import { collectCassetteSummary, type CassetteFileReport } from './cassetteSummary';

const execution = (cassette?: string): Pick<ExecutionRecord, 'labels'> =>
  ({ labels: { metadata: cassette === undefined ? {} : { cassette } } }) as unknown as Pick<ExecutionRecord, 'labels'>;

const report = (overrides: Partial<CassetteFileReport>): CassetteFileReport => ({
  kind: 'cassette_file',
  testPath: 'tests/a.test.ts',
  replayed: 0,
  recorded: 0,
  obsolete: 0,
  obsoleteTests: [],
  written: false,
  ...overrides,
});

describe('collectCassetteSummary', () => {
  test('counts executions by metadata.cassette and sums obsolete entries per file', () => {
    const executions = [
      execution('replayed'),
      execution('replayed'),
      execution('recorded'),
      execution('mixed'),
      execution(),
      execution('unknown'),
      { labels: {} } as unknown as Pick<ExecutionRecord, 'labels'>,
    ];
    const summary = collectCassetteSummary(executions, [
      report({ testPath: 'tests/b.test.ts', obsolete: 1, obsoleteTests: ['b old'] }),
      report({ testPath: 'tests/a.test.ts', obsolete: 2, obsoleteTests: ['a z', 'a old'] }),
      report({ testPath: 'tests/c.test.ts', replayed: 4 }),
    ]);
    expect(summary).toEqual({
      replayed: 2,
      recorded: 1,
      mixed: 1,
      obsolete: 3,
      obsoleteRemoved: false,
      obsoleteFiles: [
        { testPath: 'tests/a.test.ts', obsolete: 2, tests: ['a old', 'a z'] },
        { testPath: 'tests/b.test.ts', obsolete: 1, tests: ['b old'] },
      ],
    });
    expect(collectCassetteSummary([], [report({ obsolete: 1, removed: true })])?.obsoleteRemoved).toBe(true);
  });

  test('is null when nothing was replayed, recorded or obsolete', () => {
    expect(collectCassetteSummary([execution(), execution()], [report({ written: false })])).toBeNull();
  });
});
