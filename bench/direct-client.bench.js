// The cost of the direct client: N sequential `callTool` round trips through `kit.direct` (with
// tracing, raw-frame evidence and the in-memory store) versus the raw SDK `Client` on the same
// example server, over stdio and in-process, side by side in one process. Prints the median
// latency per call of each, their ratio (target <= 1.10 over stdio), and trace bytes per event.
// Needs the built dist (`npm run bench` builds first). M3_BENCH_CALLS overrides N.
'use strict';
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const ROOT = path.resolve(__dirname, '..');
const core = require(path.join(ROOT, 'packages/core/dist'));
const examples = require(path.join(ROOT, 'examples/servers/dist'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { InMemoryTransport } = require('@modelcontextprotocol/sdk/inMemory.js');

const CALLS = Number(process.env.M3_BENCH_CALLS || 500);
const ROUNDS = 3;
/** Untimed calls before each timed series: the kit path has more code for the JIT to warm. */
const WARMUP = 300;
const TOOL = { name: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } };

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Times `CALLS` sequential calls of `call` after a warm-up; returns per-call latencies in ms. */
async function timeCalls(call) {
  for (let i = 0; i < WARMUP; i += 1) await call();
  const latencies = [];
  for (let i = 0; i < CALLS; i += 1) {
    const started = performance.now();
    await call();
    latencies.push(performance.now() - started);
  }
  return latencies;
}

async function rawStdio() {
  const client = new Client({ name: 'bench-raw', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [examples.exampleServerBin] }));
  try {
    return await timeCalls(() => client.callTool(TOOL));
  } finally {
    await client.close();
  }
}

async function rawInProcess() {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = examples.createExampleServer();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench-raw', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    return await timeCalls(() => client.callTool(TOOL));
  } finally {
    await client.close();
    await server.close();
  }
}

/** The same calls through the kit; also returns the trace's bytes per event. */
async function kitCalls(server) {
  const kit = new core.MCPTestKit();
  try {
    const client = await kit.direct(server).connect();
    const latencies = await timeCalls(() => client.callTool(TOOL.name, TOOL.arguments));
    await client.close();
    const trace = client.finalTrace;
    const traceBytes = Buffer.byteLength(JSON.stringify(trace));
    return { latencies, bytesPerEvent: traceBytes / trace.events.length, events: trace.events.length };
  } finally {
    await kit.close();
  }
}

async function compare(label, raw, server) {
  const rawLatencies = [];
  const kitLatencies = [];
  let bytesPerEvent = 0;
  let events = 0;
  // One untimed round of each first (steady state, not JIT warm-up, is what is compared); then
  // alternate raw and kit rounds so drift (CPU frequency, GC) hits both sides alike.
  await raw();
  await kitCalls(server);
  for (let round = 0; round < ROUNDS; round += 1) {
    rawLatencies.push(...(await raw()));
    const measured = await kitCalls(server);
    kitLatencies.push(...measured.latencies);
    bytesPerEvent = measured.bytesPerEvent;
    events = measured.events;
  }
  const rawMedian = median(rawLatencies);
  const kitMedian = median(kitLatencies);
  return { label, rawMedian, kitMedian, ratio: kitMedian / rawMedian, bytesPerEvent, events };
}

async function run() {
  const stdioServer = new core.StdioServer({
    name: 'example',
    command: process.execPath,
    args: [examples.exampleServerBin],
  });
  const inProcessServer = new core.InProcessServer({ name: 'example', factory: examples.createExampleServer });
  const rows = [
    await compare('stdio', rawStdio, stdioServer),
    await compare('in-process', rawInProcess, inProcessServer),
  ];
  process.stdout.write(`${CALLS} sequential callTool round trips x ${ROUNDS} rounds, median per call\n`);
  process.stdout.write('transport    raw SDK ms   kit.direct ms   ratio   trace bytes/event (events)\n');
  for (const row of rows) {
    process.stdout.write(
      `${row.label.padEnd(12)} ${row.rawMedian.toFixed(3).padStart(10)}   ${row.kitMedian.toFixed(3).padStart(13)}   ` +
        `${row.ratio.toFixed(2).padStart(5)}   ${row.bytesPerEvent.toFixed(0).padStart(8)} (${row.events})\n`,
    );
  }
  const stdio = rows[0];
  process.stdout.write(
    `stdio ratio ${stdio.ratio.toFixed(2)} against the target of 1.10: ${stdio.ratio <= 1.1 ? 'met' : 'NOT met'}\n`,
  );
  return rows;
}

module.exports = { run };

if (require.main === module) {
  run().catch((error) => {
    process.stderr.write(`${error && error.stack ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
