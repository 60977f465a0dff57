// The cost of the direct client: N sequential `callTool` round trips through `kit.direct` (with
// tracing, raw-frame evidence and the in-memory store) versus the raw SDK `Client` on the same
// example server, over stdio and in-process, side by side in one process. Prints the median
// latency per call of each, their ratio (target <= 1.10 over stdio), the parent's CPU time per call
// and trace bytes per event. Both clients stay connected and are timed in alternating batches.
// Needs the built dist (`npm run bench` builds first). M3_BENCH_CALLS overrides N.
'use strict';
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const core = require(path.join(ROOT, 'packages/core/dist'));
const examples = require(path.join(ROOT, 'examples/servers/dist'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { InMemoryTransport } = require('@modelcontextprotocol/sdk/inMemory.js');
const { median, timed } = require('./stats');

const CALLS = Number(process.env.M3_BENCH_CALLS || 500);
const ROUNDS = Number(process.env.M3_BENCH_ROUNDS || 5);
/** Calls per side before switching to the other side; both stay connected, so drift hits both alike. */
const BATCH = 50;
/** Untimed calls of each side first: the kit path has more code for the JIT to warm. */
const WARMUP = 300;
const TOOL = { name: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } };

function mean(values) {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Times `count` sequential calls of `call`; pushes per-call latencies (ms), returns CPU µs used. */
async function timeBatch(call, count, latencies) {
  const cpu = process.cpuUsage();
  latencies.push(...(await timed(count, call)));
  const used = process.cpuUsage(cpu);
  return used.user + used.system;
}

/**
 * One round: a fresh raw client and a fresh kit connection, warmed up, then `CALLS` calls each in
 * alternating batches of `BATCH`. Returns both sides' latencies and CPU per call, and the trace's
 * bytes per event.
 */
async function round(openRaw, server) {
  const raw = await openRaw();
  const kit = new core.MCPTestKit();
  try {
    const client = await kit.direct(server).connect();
    const rawCall = () => raw.client.callTool(TOOL);
    const kitCall = () => client.callTool(TOOL.name, TOOL.arguments);
    for (let i = 0; i < WARMUP; i += 1) {
      await rawCall();
      await kitCall();
    }
    const rawLatencies = [];
    const kitLatencies = [];
    let rawCpu = 0;
    let kitCpu = 0;
    for (let done = 0; done < CALLS; done += BATCH) {
      const count = Math.min(BATCH, CALLS - done);
      // Alternate which side goes first so neither always follows the other's garbage.
      if ((done / BATCH) % 2 === 0) {
        rawCpu += await timeBatch(rawCall, count, rawLatencies);
        kitCpu += await timeBatch(kitCall, count, kitLatencies);
      } else {
        kitCpu += await timeBatch(kitCall, count, kitLatencies);
        rawCpu += await timeBatch(rawCall, count, rawLatencies);
      }
    }
    await client.close();
    const trace = client.finalTrace;
    const traceBytes = Buffer.byteLength(JSON.stringify(trace));
    return {
      rawMedian: median(rawLatencies),
      kitMedian: median(kitLatencies),
      rawMean: mean(rawLatencies),
      kitMean: mean(kitLatencies),
      rawCpuUs: rawCpu / CALLS,
      kitCpuUs: kitCpu / CALLS,
      bytesPerEvent: traceBytes / trace.events.length,
      events: trace.events.length,
    };
  } finally {
    await kit.close();
    await raw.close();
  }
}

async function openRawStdio() {
  const client = new Client({ name: 'bench-raw', version: '1.0.0' });
  // stderr piped like the kit's children, so both sides spawn the server the same way.
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [examples.exampleServerBin],
    stderr: 'pipe',
  });
  await client.connect(transport);
  transport.stderr?.resume();
  return { client, close: () => client.close() };
}

async function openRawInProcess() {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = examples.createExampleServer();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench-raw', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/**
 * `ROUNDS` rounds of interleaved batches; the ratio is taken per round (kit median / raw median)
 * and the median of those ratios is reported, which a noisy shared machine disturbs least.
 */
async function compare(label, openRaw, server) {
  const rounds = [];
  for (let r = 0; r < ROUNDS; r += 1) rounds.push(await round(openRaw, server));
  const pick = (key) => median(rounds.map((row) => row[key]));
  return {
    label,
    rawMedian: pick('rawMedian'),
    kitMedian: pick('kitMedian'),
    ratio: median(rounds.map((row) => row.kitMedian / row.rawMedian)),
    ratios: rounds.map((row) => row.kitMedian / row.rawMedian),
    meanRatio: median(rounds.map((row) => row.kitMean / row.rawMean)),
    rawCpuUs: pick('rawCpuUs'),
    kitCpuUs: pick('kitCpuUs'),
    bytesPerEvent: pick('bytesPerEvent'),
    events: rounds[0].events,
  };
}

async function run() {
  const stdioServer = new core.StdioServer({
    name: 'example',
    command: process.execPath,
    args: [examples.exampleServerBin],
  });
  const inProcessServer = new core.InProcessServer({ name: 'example', factory: examples.createExampleServer });
  const rows = [
    await compare('stdio', openRawStdio, stdioServer),
    await compare('in-process', openRawInProcess, inProcessServer),
  ];
  process.stdout.write(
    `${CALLS} sequential callTool round trips a side per round, interleaved in batches of ${BATCH}, ` +
      `${ROUNDS} rounds; medians over rounds\n`,
  );
  process.stdout.write(
    'transport    raw SDK ms   kit.direct ms   ratio (per round)              mean ratio   raw CPU µs   kit CPU µs   trace bytes/event (events)\n',
  );
  for (const row of rows) {
    const perRound = row.ratios.map((r) => r.toFixed(2)).join(' ');
    process.stdout.write(
      `${row.label.padEnd(12)} ${row.rawMedian.toFixed(3).padStart(10)}   ${row.kitMedian.toFixed(3).padStart(13)}   ` +
        `${row.ratio.toFixed(2).padStart(5)} (${perRound})`.padEnd(38) +
        `${row.meanRatio.toFixed(2).padStart(10)}   ` +
        `${row.rawCpuUs.toFixed(0).padStart(6)}       ${row.kitCpuUs.toFixed(0).padStart(6)}       ` +
        `${row.bytesPerEvent.toFixed(0).padStart(8)} (${row.events})\n`,
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
