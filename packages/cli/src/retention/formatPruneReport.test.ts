import { formatBytes } from './formatBytes';
import { formatPruneReport } from './formatPruneReport';

describe('formatPruneReport', () => {
  test('what was pruned, the runs by id, and the space before and after', () => {
    const text = formatPruneReport(
      {
        dryRun: false,
        runIds: ['run-b', 'run-a'],
        executionCount: 12,
        evaluationCount: 1,
        bytesBefore: 3 * 1024 * 1024,
        bytesAfter: 512 * 1024,
      },
      '.m3/executions.sqlite',
      'keep the 5 newest runs',
    );
    expect(text).toBe(
      'm3 prune  .m3/executions.sqlite  (keep the 5 newest runs)\n' +
        'pruned 2 runs, 12 executions, 1 evaluation:\n' +
        '  run-b\n' +
        '  run-a\n' +
        'database  3.0 MB -> 512.0 KB (2.5 MB reclaimed)\n',
    );
  });

  test('a dry run says nothing changed; running runs kept are named with the flag that prunes them', () => {
    const text = formatPruneReport(
      {
        dryRun: true,
        runIds: ['run-a'],
        executionCount: 1,
        evaluationCount: 0,
        skippedRunIds: ['run-live'],
        bytesBefore: 2048,
        bytesAfter: 2048,
      },
      'db.sqlite',
      'runs started before 2026-03-01T00:00:00.000Z',
    );
    expect(text).toContain('would prune 1 run, 1 execution, 0 evaluations:\n  run-a\n');
    expect(text).toContain('kept 1 running run (pass --include-running to prune it): run-live\n');
    expect(text).toContain('database  2.0 KB (dry run: nothing was changed)\n');
  });

  test('nothing selected; a store without a size still says a dry run changed nothing', () => {
    const text = formatPruneReport({ dryRun: true, runIds: [], executionCount: 0, evaluationCount: 0 }, 'pg', 'x');
    expect(text).toBe('m3 prune  pg  (x)\nnothing to prune: no run matches\ndry run: nothing was changed\n');
  });

  test('formatBytes', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.0 GB');
  });
});
