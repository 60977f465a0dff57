// The share of a run's tests that passed, shown beside the evaluation pass rate: a run where 4 of
// 14 tests failed but 197 of 200 evaluations passed must not chart as 98.5% only.
import type { AttemptCounts } from '@sf-m3/core';

/** A run's tests as a rate: passed attempts over passed + failed ones (skipped and todo left out). */
export interface TestPassRate {
  passRate: number | null;
  passed: number;
  failed: number;
}

/** `counts.passed / (passed + failed)`, or null when no attempt passed or failed. */
export function testPassRate(counts: AttemptCounts): TestPassRate {
  const decided = counts.passed + counts.failed;
  return { passRate: decided === 0 ? null : counts.passed / decided, passed: counts.passed, failed: counts.failed };
}
