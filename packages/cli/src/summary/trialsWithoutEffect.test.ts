import type { AttemptOutcome, AttemptRecord } from '@sf-m3/core';
import { trialsWithoutEffect } from './trialsWithoutEffect';

function attempt(fullName: string, outcome: AttemptOutcome = 'passed'): AttemptRecord {
  return {
    attemptId: `attempt-${fullName}`,
    runId: 'run-1',
    testPath: '/project/tests/shipping.test.js',
    fullName,
    caseId: null,
    suiteId: 1,
    outcome,
    durationMs: 5,
    failureMessage: null,
    retryIndex: 0,
    executionIds: [],
    startedAt: '2026-11-29T12:00:00.000Z',
    finishedAt: '2026-11-29T12:00:01.000Z',
  };
}

describe('trialsWithoutEffect', () => {
  test('--trials N > 1 with no test.m3 expansion among the tests that ran: one warning naming N', () => {
    const attempts = [attempt('shipping quotes local'), attempt('shipping quotes regional', 'failed')];
    expect(trialsWithoutEffect(3, attempts)).toBe('--trials 3 had no effect: no test.m3 test ran');
  });

  test('a test.m3 expansion with the CLI trial count means the trials took effect', () => {
    const attempts = [
      attempt('shipping plain'),
      attempt('shipping quotes [agent=acp:fixture] [trial 1/3]'),
      attempt('shipping quotes [agent=acp:fixture] [trial 2/3]', 'failed'),
    ];
    expect(trialsWithoutEffect(3, attempts)).toBeNull();
  });

  test('expansions that were skipped or todo did not run', () => {
    const attempts = [
      attempt('shipping quotes [trial 1/2]', 'skipped'),
      attempt('shipping quotes [trial 2/2]', 'todo'),
    ];
    expect(trialsWithoutEffect(2, attempts)).toBe('--trials 2 had no effect: no test.m3 test ran');
  });

  test('no --trials, or --trials 1, never warns', () => {
    expect(trialsWithoutEffect(null, [attempt('shipping plain')])).toBeNull();
    expect(trialsWithoutEffect(1, [attempt('shipping plain')])).toBeNull();
  });

  test('a trial suffix of another count, or inside the title, is not a test.m3 expansion of this run', () => {
    const attempts = [attempt('shipping quotes [trial 1/2]'), attempt('shipping [trial 1/3] in the middle')];
    expect(trialsWithoutEffect(3, attempts)).toBe('--trials 3 had no effect: no test.m3 test ran');
  });
});
