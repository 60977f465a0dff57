import type { RunRecord } from '@sf-m3/core';
import { combineRunRecords } from './combineRunRecords';

const counts = { passed: 3, failed: 1, skipped: 0, todo: 0 };
const run = (overrides: Partial<RunRecord>): RunRecord => ({
  runId: 'run-1',
  label: null,
  startedAt: '2026-03-02T10:00:00.000Z',
  finishedAt: '2026-03-02T10:05:00.000Z',
  status: 'passed',
  argv: ['test'],
  counts: { passed: 1, failed: 0, skipped: 0, todo: 0 },
  ...overrides,
});

describe('combineRunRecords', () => {
  test('earliest start, latest finish, the worst status and the recounted counts', () => {
    const a = run({ startedAt: '2026-03-02T10:01:00.000Z', finishedAt: '2026-03-02T10:09:00.000Z' });
    const b = run({ status: 'failed', label: 'nightly' });
    expect(combineRunRecords(a, b, counts)).toEqual({
      ...a,
      startedAt: '2026-03-02T10:00:00.000Z',
      finishedAt: '2026-03-02T10:09:00.000Z',
      status: 'failed',
      label: 'nightly',
      counts,
    });
    expect(combineRunRecords(run({ status: 'interrupted' }), run({ status: 'failed' }), counts).status).toBe(
      'interrupted',
    );
  });

  test('a running shard keeps the run running and unfinished', () => {
    const combined = combineRunRecords(run({}), run({ status: 'running', finishedAt: null }), counts);
    expect(combined).toMatchObject({ status: 'running', finishedAt: null });
  });

  test('is idempotent: every problem once, combining a record with itself changes only counts', () => {
    const problem = { kind: 'file_error' as const, testPath: 'a.test.js', message: 'boom' };
    const a = run({ status: 'failed', problems: [problem] });
    const b = run({ status: 'failed', problems: [problem, { ...problem, testPath: 'b.test.js' }] });
    const once = combineRunRecords(a, b, counts);
    expect(once.problems).toHaveLength(2);
    expect(combineRunRecords(once, b, counts)).toEqual(once);
    expect(combineRunRecords(run({}), run({}), counts)).not.toHaveProperty('problems');
  });
});
