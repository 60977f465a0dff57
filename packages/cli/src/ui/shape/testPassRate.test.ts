import { testPassRate } from './testPassRate';

describe('testPassRate', () => {
  test('4 of 14 tests failing is 10/14, whatever the evaluations say', () => {
    expect(testPassRate({ passed: 10, failed: 4, skipped: 3, todo: 1 })).toEqual({
      passRate: 10 / 14,
      passed: 10,
      failed: 4,
    });
  });

  test('a run with only skipped tests has no rate', () => {
    expect(testPassRate({ passed: 0, failed: 0, skipped: 2, todo: 0 }).passRate).toBeNull();
  });
});
