// Two-sided Fisher exact test on a 2×2 table of pass/fail counts: is the pass rate of one sample
// different from the other's beyond what chance alone gives? The p-value is the sum of the
// hypergeometric probabilities of every table with the same margins that is no more likely than
// the observed one (R's `fisher.test` rule, with its 1e-7 relative tolerance for ties). Exact for
// any count: probabilities are computed from log-factorials relative to the most likely table, so
// nothing underflows or overflows, and no normal approximation is used.
import { logFactorial } from './logFactorial';

/** Pass and fail counts of one sample. */
export interface PassCounts {
  passed: number;
  failed: number;
}

/** Relative tolerance under which two tables count as equally likely (R uses 1 + 1e-7). */
const TIE_TOLERANCE = 1 + 1e-7;

function check(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) {
    throw new RangeError(`fisherExactTest: ${name} must be a non-negative whole number, not ${value}`);
  }
}

/** ln P(X = x) for the hypergeometric distribution of the table's first cell, up to a constant. */
function logWeight(x: number, rowA: number, rowB: number, passedTotal: number): number {
  return -(
    logFactorial(x) +
    logFactorial(rowA - x) +
    logFactorial(passedTotal - x) +
    logFactorial(rowB - passedTotal + x)
  );
}

/**
 * The two-sided p-value of Fisher's exact test comparing the pass rate of `a` with that of `b`;
 * 1 when either sample is empty or every trial of both went the same way.
 */
export function fisherExactTest(a: PassCounts, b: PassCounts): number {
  check('a.passed', a.passed);
  check('a.failed', a.failed);
  check('b.passed', b.passed);
  check('b.failed', b.failed);
  const rowA = a.passed + a.failed;
  const rowB = b.passed + b.failed;
  const passedTotal = a.passed + b.passed;
  const failedTotal = a.failed + b.failed;
  if (rowA === 0 || rowB === 0 || passedTotal === 0 || failedTotal === 0) return 1;

  const low = Math.max(0, passedTotal - rowB);
  const high = Math.min(rowA, passedTotal);
  const logs: number[] = [];
  for (let x = low; x <= high; x += 1) logs.push(logWeight(x, rowA, rowB, passedTotal));
  // Scale by the most likely table so the largest term is exactly 1.
  const peak = Math.max(...logs);
  const weights = logs.map((l) => Math.exp(l - peak));
  const observed = weights[a.passed - low]!;
  let total = 0;
  let asExtreme = 0;
  for (const w of weights) {
    total += w;
    if (w <= observed * TIE_TOLERANCE) asExtreme += w;
  }
  return Math.min(1, asExtreme / total);
}
