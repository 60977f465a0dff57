/** z for a two-sided 95% interval. */
const Z_95 = 1.959963984540054;

/**
 * The 95% Wilson score interval of `passed` successes out of `expected` trials, or `null` when
 * nothing is expected. Unlike the normal approximation it stays inside [0, 1] and is honest for
 * small samples and rates near 0 or 1, which is exactly where eval pass rates live.
 */
export function wilsonInterval(passed: number, expected: number): [number, number] | null {
  if (!Number.isFinite(passed) || !Number.isFinite(expected) || expected <= 0) return null;
  if (passed < 0 || passed > expected) {
    throw new RangeError(`wilsonInterval: passed (${passed}) must be between 0 and expected (${expected})`);
  }
  const n = expected;
  const p = passed / n;
  const z2 = Z_95 * Z_95;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const halfWidth = (Z_95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return [Math.max(0, centre - halfWidth), Math.min(1, centre + halfWidth)];
}
