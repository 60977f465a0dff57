// ln(n!) for the hypergeometric probabilities of Fisher's exact test. Exact sums of logs up to a
// cached limit (pass-rate counts are small), Stirling's series with five correction terms beyond,
// which is accurate to double precision there; no factorial is ever formed, so nothing overflows.

const CACHE_LIMIT = 4096;
const cache: number[] = [0];

function stirling(n: number): number {
  const inv = 1 / n;
  const inv2 = inv * inv;
  const series = inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 * (1 / 1680 - inv2 / 1188))));
  return (n + 0.5) * Math.log(n) - n + 0.5 * Math.log(2 * Math.PI) + series;
}

/** ln(n!) for a non-negative whole number `n`. */
export function logFactorial(n: number): number {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`logFactorial needs a non-negative whole number, not ${n}`);
  if (n >= CACHE_LIMIT) return stirling(n);
  for (let k = cache.length; k <= n; k += 1) cache[k] = cache[k - 1]! + Math.log(k);
  return cache[n]!;
}
