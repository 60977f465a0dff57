// The latency the MCP capture proxy adds per frame: N sequential stdio `tools/call` round trips
// with the SDK client to the example server, directly and through the proxy (capturing every
// frame to a file, redacting, enforcing an allowlist), plus raw newline-delimited echo round trips
// to a minimal JSON-RPC server (no SDK on either side) to isolate the relay. Prints the median per
// call of each and their ratio. Needs the built dist (`npm run bench` builds first).
// M3_BENCH_CALLS overrides N.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const proxy = require(path.join(ROOT, 'packages/core/dist/proxy'));
const examples = require(path.join(ROOT, 'examples/servers/dist'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { median, timed } = require('./stats');

const CALLS = Number(process.env.M3_BENCH_CALLS || 500);
const WARMUP = 200;
const TOOL = { name: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } };
const ECHO_SERVER = path.join(ROOT, 'packages/core/src/proxy/__fixtures__/ndjsonServer.js');

async function timeCalls(call) {
  for (let i = 0; i < WARMUP; i += 1) await call(i);
  return timed(CALLS, call);
}

/** Writes a proxy config for `command args` and returns the proxy command and capture path. */
async function proxiedCommand(serverName, command, args, tools) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sf-m3-bench-proxy-'));
  const capturePath = path.join(dir, 'capture.jsonl');
  const config = proxy.createProxyConfig({
    serverName,
    command,
    args,
    capturePath,
    tools,
    canaries: ['bench-secret-1234'],
  });
  return { ...proxy.buildProxyCommand(await proxy.writeProxyConfig(config)), capturePath, dir };
}

async function sdkCalls(command, args) {
  const client = new Client({ name: 'bench-proxy', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  try {
    return await timeCalls(() => client.callTool(TOOL));
  } finally {
    await client.close();
  }
}

/** Raw NDJSON round trips: one `echo` request, wait for its line, repeat. */
async function rawEchoCalls(command, args) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  let waiting = null;
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text) => {
    buffered += text;
    const nl = buffered.indexOf('\n');
    if (nl !== -1 && waiting) {
      buffered = buffered.slice(nl + 1);
      const resolve = waiting;
      waiting = null;
      resolve();
    }
  });
  const call = (i) =>
    new Promise((resolve) => {
      waiting = resolve;
      child.stdin.write(`{"jsonrpc":"2.0","id":${i},"method":"echo","params":{"n":${i}}}\n`);
    });
  try {
    return await timeCalls(call);
  } finally {
    child.stdin.end();
    await new Promise((resolve) => child.on('close', resolve));
  }
}

function row(label, direct, through) {
  const d = median(direct);
  const t = median(through);
  return `${label.padEnd(34)} ${d.toFixed(3).padStart(9)} ms ${t.toFixed(3).padStart(9)} ms ${(t / d).toFixed(2).padStart(7)}x`;
}

async function run() {
  const out = [];
  const sdkProxy = await proxiedCommand(
    'example',
    process.execPath,
    [examples.exampleServerBin],
    ['example:shipping_quote'],
  );
  const sdkDirect = await sdkCalls(process.execPath, [examples.exampleServerBin]);
  const sdkThrough = await sdkCalls(sdkProxy.command, sdkProxy.args);
  const echoProxy = await proxiedCommand('echo', process.execPath, [ECHO_SERVER]);
  const echoDirect = await rawEchoCalls(process.execPath, [ECHO_SERVER]);
  const echoThrough = await rawEchoCalls(echoProxy.command, echoProxy.args);
  const records = fs.readFileSync(sdkProxy.capturePath, 'utf8').split('\n').length - 1;
  out.push(`capture proxy: ${CALLS} sequential calls after ${WARMUP} warm-up calls, median per call`);
  out.push(`${''.padEnd(34)} ${'direct'.padStart(12)} ${'proxied'.padStart(12)} ${'ratio'.padStart(8)}`);
  out.push(row('SDK tools/call (example server)', sdkDirect, sdkThrough));
  out.push(row('raw NDJSON echo (fixture server)', echoDirect, echoThrough));
  out.push(`capture records written for the SDK run: ${records}`);
  process.stdout.write(`${out.join('\n')}\n`);
  for (const dir of [sdkProxy.dir, echoProxy.dir]) fs.rmSync(dir, { recursive: true, force: true });
}

module.exports = { run };

if (require.main === module) run();
