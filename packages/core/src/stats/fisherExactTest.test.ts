import { fisherExactTest } from './fisherExactTest';
import { logFactorial } from './logFactorial';

const counts = (passed: number, failed: number) => ({ passed, failed });

describe('fisherExactTest', () => {
  test('10/10 against 9/10 is within noise (p = 1)', () => {
    expect(fisherExactTest(counts(10, 0), counts(9, 1))).toBeCloseTo(1, 12);
  });

  test('20/20 against 8/20 is significant at 0.05', () => {
    const p = fisherExactTest(counts(20, 0), counts(8, 12));
    expect(p).toBeLessThan(0.05);
    expect(p).toBeCloseTo(4.5095150768120733e-5, 15);
  });

  // Published two-sided p-values: R's `fisher.test` help page (TeaTasting 0.4857, Convictions
  // 0.0005367), Wikipedia's worked example (0.002759), and R/SciPy for the rest.
  test.each([
    ['R TeaTasting', [3, 1], [1, 3], 0.48571428571428565],
    ['R Convictions', [2, 15], [10, 3], 0.0005367241191434358],
    ['Wikipedia studying example', [1, 9], [11, 3], 0.0027594561852200836],
    ['all against none', [0, 5], [5, 0], 0.007936507936507938],
    ['50 trials each', [45, 5], [30, 20], 0.0009668432030628979],
    ['not quite significant', [7, 3], [2, 8], 0.06977851869492736],
    ['a thousand trials each', [500, 500], [450, 550], 0.02820356890423392],
    ['ten failures in a thousand', [1000, 0], [990, 10], 0.0019094651653416143],
  ])('%s', (_name, a, b, expected) => {
    const p = fisherExactTest(counts(a[0]!, a[1]!), counts(b[0]!, b[1]!));
    expect(Math.abs(p - expected) / expected).toBeLessThan(1e-9);
  });

  test('is symmetric in the two samples and in pass/fail', () => {
    const p = fisherExactTest(counts(12, 3), counts(5, 9));
    expect(fisherExactTest(counts(5, 9), counts(12, 3))).toBeCloseTo(p, 14);
    expect(fisherExactTest(counts(3, 12), counts(9, 5))).toBeCloseTo(p, 14);
  });

  test('stays finite and sensible for counts whose factorials overflow a double', () => {
    const p = fisherExactTest(counts(9000, 1000), counts(8800, 1200));
    expect(Number.isFinite(p)).toBe(true);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-3);
    expect(fisherExactTest(counts(5000, 5000), counts(5000, 5000))).toBeCloseTo(1, 10);
  });

  test('an empty sample or a table with one outcome only gives p = 1', () => {
    expect(fisherExactTest(counts(0, 0), counts(3, 4))).toBe(1);
    expect(fisherExactTest(counts(10, 0), counts(10, 0))).toBe(1);
  });

  test('refuses counts that are not whole non-negative numbers', () => {
    expect(() => fisherExactTest(counts(-1, 2), counts(1, 1))).toThrow(/a.passed must be a non-negative whole number/);
    expect(() => fisherExactTest(counts(1, 1), counts(1, 0.5))).toThrow(/b.failed/);
  });
});

describe('logFactorial', () => {
  test('is exact for small n and continuous across the Stirling cut-over', () => {
    expect(logFactorial(0)).toBe(0);
    expect(logFactorial(5)).toBeCloseTo(Math.log(120), 13);
    let sum = 0;
    for (let k = 1; k <= 5000; k += 1) sum += Math.log(k);
    expect(Math.abs(logFactorial(5000) - sum) / sum).toBeLessThan(1e-12);
  });
});
