import type { RunRecord } from '@sf-m3/core';
import { displayPath } from '../displayPath';
import { formatRuns } from './runs';

const run = (overrides: Partial<RunRecord>): RunRecord => ({
  runId: 'run-00000000000000000000000000000001',
  label: null,
  startedAt: '2026-11-29T12:00:00.000Z',
  finishedAt: '2026-11-29T12:00:09.000Z',
  status: 'passed',
  argv: ['test'],
  counts: { passed: 3, failed: 0, skipped: 1, todo: 0 },
  ...overrides,
});

describe('formatRuns', () => {
  test('a header row, then one aligned line per run', () => {
    expect(
      formatRuns([
        run({
          runId: 'run-ci-42',
          status: 'failed',
          counts: { passed: 10, failed: 2, skipped: 0, todo: 1 },
          label: 'nightly',
        }),
        run({}),
      ]),
    ).toBe(
      'RUN                                   STARTED                   STATUS  ATTEMPTS                                LABEL\n' +
        'run-ci-42                             2026-11-29T12:00:00.000Z  failed  10 passed, 2 failed, 0 skipped, 1 todo  nightly\n' +
        'run-00000000000000000000000000000001  2026-11-29T12:00:00.000Z  passed  3 passed, 0 failed, 1 skipped, 0 todo\n',
    );
  });

  test('a header wider than its column widens the column', () => {
    const lines = formatRuns([run({ runId: 'r1', status: 'interrupted' })]).split('\n');
    expect(lines[0]).toBe('RUN  STARTED                   STATUS       ATTEMPTS                               LABEL');
    expect(lines[1]).toBe('r1   2026-11-29T12:00:00.000Z  interrupted  3 passed, 0 failed, 1 skipped, 0 todo');
  });

  test('an empty database', () => {
    expect(formatRuns([])).toBe('no runs recorded yet\n');
  });
});

describe('displayPath', () => {
  test('relative inside the project, absolute outside', () => {
    expect(displayPath('/project', '/project/.m3/executions.sqlite')).toBe('.m3/executions.sqlite');
    expect(displayPath('/project', '/tmp/db.sqlite')).toBe('/tmp/db.sqlite');
    expect(displayPath('/project', '/project')).toBe('/project');
  });
});
