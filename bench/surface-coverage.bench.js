// The cost of surface coverage bookkeeping (contract §25; issue target: ≤ 5% added to a run of
// 1 000 direct calls): one execution of N `callTool`s on the in-process example server (after a
// tools listing), connect to saved, timed with the evidence computed at finish and stored in the
// snapshot, and with that step replaced by a no-op, in alternating order. Prints the median wall
// time of each side and two ratios against 1.05: the wall-clock one (with / without), which a
// machine shared with other work moves by more than the bookkeeping costs, and the direct one,
// (without + the bookkeeping timed inside the run) / without, which the target is judged on.
// Needs the built dist. M3_BENCH_CALLS overrides N.
'use strict';
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const ROOT = path.resolve(__dirname, '..');
const core = require(path.join(ROOT, 'packages/core/dist'));
const snapshotField = require(path.join(ROOT, 'packages/core/dist/surface/coverage/surfaceSnapshotField'));
const examples = require(path.join(ROOT, 'examples/servers/dist'));
const { median } = require('./stats');

const CALLS = Number(process.env.M3_BENCH_CALLS || 1000);
const ROUNDS = Number(process.env.M3_BENCH_ROUNDS || 7);
const TARGET = 1.05;
const ZONES = ['local', 'regional', 'international'];

const computeField = snapshotField.surfaceSnapshotField;
/** Milliseconds the bookkeeping took inside the last execution. */
let bookkeepingMs = 0;
const withCoverage = (trace) => {
  const started = performance.now();
  const field = computeField(trace);
  bookkeepingMs += performance.now() - started;
  return field;
};
const withoutCoverage = () => ({});

/** One execution, connect to saved: a listing and `CALLS` calls. Returns its wall ms and final trace. */
async function execution(server, bookkeeping) {
  // DirectExecution reads the export at each save, so swapping it turns the bookkeeping on and off.
  snapshotField.surfaceSnapshotField = bookkeeping;
  bookkeepingMs = 0;
  const kit = new core.MCPTestKit({ store: new core.InMemoryExecutionStore() });
  const started = performance.now();
  const client = await kit.direct(server).connect();
  await client.listAllTools();
  for (let i = 0; i < CALLS; i += 1) {
    await client.callTool('shipping_quote', { weight_kg: 1 + (i % 5), zone: ZONES[i % 3] });
  }
  await client.close();
  await kit.close();
  const ms = performance.now() - started;
  snapshotField.surfaceSnapshotField = computeField;
  return { ms, bookkeepingMs, trace: client.finalTrace };
}

async function run() {
  const server = new core.InProcessServer({ name: 'example', factory: examples.createExampleServer });
  await execution(server, withCoverage);
  await execution(server, withoutCoverage);
  const withMs = [];
  const withoutMs = [];
  const ratios = [];
  const directRatios = [];
  const inRun = [];
  let trace;
  for (let round = 0; round < ROUNDS; round += 1) {
    // Alternate which side goes first so neither always follows the other's garbage.
    let on;
    let off;
    if (round % 2 === 0) {
      on = await execution(server, withCoverage);
      off = await execution(server, withoutCoverage);
    } else {
      off = await execution(server, withoutCoverage);
      on = await execution(server, withCoverage);
    }
    withMs.push(on.ms);
    withoutMs.push(off.ms);
    ratios.push(on.ms / off.ms);
    directRatios.push((off.ms + on.bookkeepingMs) / off.ms);
    inRun.push(on.bookkeepingMs);
    trace = on.trace;
  }
  const ratio = median(directRatios);
  const rows = [
    ['calls per execution', String(CALLS)],
    ['trace events', String(trace.events.length)],
    ['with coverage (median ms)', median(withMs).toFixed(1)],
    ['without coverage (median ms)', median(withoutMs).toFixed(1)],
    ['bookkeeping inside the run (median ms)', median(inRun).toFixed(2)],
    [`wall ratio with / without (median of ${ROUNDS} rounds)`, median(ratios).toFixed(3)],
    ['direct ratio (without + bookkeeping) / without', ratio.toFixed(3)],
    ['target', `<= ${TARGET.toFixed(2)} ${ratio <= TARGET ? 'met' : 'MISSED'}`],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, value] of rows) process.stdout.write(`${label.padEnd(width)}  ${value}\n`);
}

module.exports = { run };
