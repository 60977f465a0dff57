// The cost of choosing a protocol era (contract §23) on stdio: connect + close through `kit.direct`
// with `protocol: 'auto'` against connecting pinned to the era it finds, for a v1 server (the
// example server; legacy) and a server built with the SDK v2 (the era fixture; modern). `auto`
// asks `server/discover` in place on the connection's own child (no extra process); the era it
// finds is cached per server definition, so from a run's second connect `auto` against a legacy
// server skips the probe. Target (issue 23): auto / pinned <= 1.2 from the second connect. Also
// prints the raw SDK v2 client's own `auto` connect (its stdio probe spawns a sibling process), and
// `callTool` through the kit against the raw SDK v2 client on the same v2 server, once in each era
// (2026-07-28, and 2025-11-25 where the kit runs the v1 client and the raw client its legacy mode;
// target <= 1.10 in each).
// Needs the built dist (`npm run bench` builds first). M3_BENCH_CONNECTS overrides the count.
'use strict';
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const core = require(path.join(ROOT, 'packages/core/dist'));
const examples = require(path.join(ROOT, 'examples/servers/dist'));
const { Client } = require('@modelcontextprotocol/client');
const { StdioClientTransport } = require('@modelcontextprotocol/client/stdio');
const { median, timed } = require('./stats');

const CONNECTS = Number(process.env.M3_BENCH_CONNECTS || 15);
const V2_FIXTURE = path.join(ROOT, 'packages/core/src/client/__fixtures__/v2-era-server.js');

const v1Args = { command: process.execPath, args: [examples.exampleServerBin] };
const v2Args = { command: process.execPath, args: [V2_FIXTURE, 'stdio'] };

/** Median connect + close time (ms) through the kit for `server`, after one untimed connect. */
async function kitConnects(server, protocol) {
  const kit = new core.MCPTestKit();
  try {
    const once = async () => {
      const client = await kit.direct(server, protocol === undefined ? {} : { protocol }).connect();
      await client.close();
    };
    await once();
    return median(await timed(CONNECTS, once));
  } finally {
    await kit.close();
  }
}

/** Median connect + close time (ms) of the kit's first `auto` connect (a new definition each time). */
async function kitFirstConnects(args) {
  const kit = new core.MCPTestKit();
  try {
    return median(
      await timed(CONNECTS, async () => {
        const server = new core.StdioServer({ name: 'fresh', ...args });
        const client = await kit.direct(server).connect();
        await client.close();
      }),
    );
  } finally {
    await kit.close();
  }
}

/** Median connect + close time (ms) of the raw SDK v2 client in `auto` mode. */
async function rawV2Auto(args) {
  return median(
    await timed(CONNECTS, async () => {
      const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'auto' } });
      await client.connect(new StdioClientTransport(args));
      await client.close();
    }),
  );
}

const CALLS = Number(process.env.M3_BENCH_CALLS || 300);

/** The two eras `callTool` is measured in: the kit's `protocol` and the raw SDK v2 client's mode. */
const CALL_ERAS = [
  { label: '2026-07-28', kitProtocol: '2026-07-28', rawMode: { pin: '2026-07-28' } },
  { label: '2025-11-25 (legacy)', kitProtocol: '2025-11-25', rawMode: 'legacy' },
];

/**
 * Median `callTool('echo')` latency (ms) through the kit and through the raw SDK v2 client on the
 * same v2 server over stdio, both in one era (the kit pinned to `kitProtocol`, the raw client in
 * `rawMode`), in alternating batches of 50 after 100 warm-up calls each.
 */
async function callToolInEra({ kitProtocol, rawMode }) {
  const kit = new core.MCPTestKit();
  const raw = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: rawMode } });
  try {
    await raw.connect(new StdioClientTransport(v2Args));
    const client = await kit
      .direct(new core.StdioServer({ name: 'v2', ...v2Args }), { protocol: kitProtocol })
      .connect();
    const rawCall = () => raw.callTool({ name: 'echo', arguments: { text: 'x' } });
    const kitCall = () => client.callTool('echo', { text: 'x' });
    for (let i = 0; i < 100; i += 1) {
      await rawCall();
      await kitCall();
    }
    const rawTimes = [];
    const kitTimes = [];
    for (let done = 0; done < CALLS; done += 50) {
      rawTimes.push(...(await timed(50, rawCall)));
      kitTimes.push(...(await timed(50, kitCall)));
    }
    return { raw: median(rawTimes), kit: median(kitTimes), era: client.initialization.era };
  } finally {
    await raw.close().catch(() => undefined);
    await kit.close();
  }
}

async function run() {
  const rows = [];
  const v1 = new core.StdioServer({ name: 'v1-example', ...v1Args });
  const v2 = new core.StdioServer({ name: 'v2-fixture', ...v2Args });
  const v1Auto = await kitConnects(v1);
  const v1Pinned = await kitConnects(v1, '2025-11-25');
  const v1First = await kitFirstConnects(v1Args);
  const v2Auto = await kitConnects(v2);
  const v2Pinned = await kitConnects(v2, '2026-07-28');
  const v2Raw = await rawV2Auto(v2Args);
  rows.push(['v1 server (legacy)', 'auto, first connect of a definition', v1First, v1First / v1Pinned]);
  rows.push(['v1 server (legacy)', 'auto, later connects (cached era)', v1Auto, v1Auto / v1Pinned]);
  rows.push(['v1 server (legacy)', "pinned '2025-11-25'", v1Pinned, 1]);
  rows.push(['v2 server (modern)', 'auto', v2Auto, v2Auto / v2Pinned]);
  rows.push(['v2 server (modern)', "pinned '2026-07-28'", v2Pinned, 1]);
  rows.push(['v2 server (modern)', "raw SDK v2 client, mode 'auto'", v2Raw, v2Raw / v2Pinned]);
  process.stdout.write(`connect + close over stdio, median of ${CONNECTS} (ms); ratio against pinned:\n`);
  for (const [server, mode, ms, ratio] of rows) {
    process.stdout.write(
      `  ${server.padEnd(20)} ${mode.padEnd(38)} ${ms.toFixed(1).padStart(8)}  ${ratio.toFixed(2)}x\n`,
    );
  }
  process.stdout.write(`callTool('echo') over stdio against the raw SDK v2 client, median of ${CALLS} (ms):\n`);
  for (const era of CALL_ERAS) {
    const calls = await callToolInEra(era);
    const ratio = calls.kit / calls.raw;
    process.stdout.write(
      `  ${era.label.padEnd(20)} kit ${calls.kit.toFixed(3)}  raw SDK v2 ${calls.raw.toFixed(3)}  ${ratio.toFixed(2)}x (target <= 1.10: ${ratio <= 1.1 ? 'met' : 'MISSED'}; kit era: ${calls.era})\n`,
    );
  }
  const worst = Math.max(v1Auto / v1Pinned, v2Auto / v2Pinned);
  process.stdout.write(
    `auto / pinned from the second connect: ${worst.toFixed(2)}x (target <= 1.20: ${worst <= 1.2 ? 'met' : 'MISSED'})\n`,
  );
}

module.exports = { run };
