// Shared by the benches (not a bench itself: run.js only picks up *.bench.js): the statistics
// they print and the loop that times sequential steps.
'use strict';
const { performance } = require('node:perf_hooks');

/** The median (the mean of the two middle values for an even count). */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The nearest-rank p-th percentile (p in 0..100). */
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** Runs `step(i)` `count` times in sequence; returns each run's wall time in ms. */
async function timed(count, step) {
  const latencies = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    await step(i);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

module.exports = { median, percentile, timed };
