// An agent session of N turns (default 50) with the deterministic shipping fixture agent through the
// kit's `acp` harness (built dist: agent process, capture proxy, trace, store) against the example
// server over stdio, each turn one `shipping_quote` tool call. For comparison in the same run: the
// same N tool calls made directly by a raw SDK client, and the same N turns driven over raw ACP
// NDJSON with no kit (agent + MCP, no proxy or trace). Prints median and p95 per turn and the
// ratios. Needs the built dist (`npm run bench` builds first). M3_BENCH_TURNS overrides N.
'use strict';
const path = require('node:path');
const { spawn } = require('node:child_process');
const { performance } = require('node:perf_hooks');

const ROOT = path.resolve(__dirname, '..');
const core = require(path.join(ROOT, 'packages/core/dist'));
const examples = require(path.join(ROOT, 'examples/servers/dist'));
const fixtures = require(path.join(ROOT, 'examples/fixtures/acp/agents.js'));
const { JsonRpcPeer } = require(path.join(ROOT, 'examples/fixtures/acp/lib/jsonRpcPeer.js'));
const { median, percentile, timed } = require('./stats');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

const TURNS = Number(process.env.M3_BENCH_TURNS || 50);
const TOOL = { name: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } };
/** The prompt the fixture agent follows exactly: the same call the raw client makes. */
const PROMPT = JSON.stringify({ tool: TOOL.name, arguments: TOOL.arguments });
const EXPECTED_TEXT = '{"amount":9,"currency":"USD"}';

/** The N tool calls by a raw SDK client over stdio (connect/close not timed). */
async function rawSdk() {
  const client = new Client({ name: 'bench-agent-session', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [examples.exampleServerBin], stderr: 'ignore' }),
  );
  try {
    return await timed(TURNS, async () => {
      const result = await client.callTool(TOOL);
      if (result.isError) throw new Error('raw shipping_quote failed');
    });
  } finally {
    await client.close();
  }
}

/** The N turns with the fixture agent over raw ACP NDJSON, no kit (open/close not timed). */
async function rawAcp() {
  const manifest = fixtures.shipping;
  const child = spawn(manifest.command, manifest.args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let text = '';
  const peer = new JsonRpcPeer(child.stdout, child.stdin, {
    onNotification: (method, params) => {
      const update = params && params.update;
      if (method === 'session/update' && update && update.sessionUpdate === 'agent_message_chunk')
        text += update.content.text;
    },
  });
  try {
    await peer.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await peer.request('session/new', {
      cwd: process.cwd(),
      mcpServers: [{ name: 'shipping', command: process.execPath, args: [examples.exampleServerBin], env: [] }],
    });
    return await timed(TURNS, async () => {
      text = '';
      const response = await peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: PROMPT }] });
      if (response.stopReason !== 'end_turn' || text !== EXPECTED_TEXT) throw new Error(`raw ACP turn failed: ${text}`);
    });
  } finally {
    child.stdin.end();
    await exited;
  }
}

/** The N turns through `kit.agents([...acp...])[0].session()`; also times open and close. */
async function kitSession() {
  const kit = new core.MCPTestKit();
  const server = new core.StdioServer({
    name: 'shipping',
    command: process.execPath,
    args: [examples.exampleServerBin],
  });
  try {
    const [agent] = kit.agents([{ harness: 'acp', manifest: fixtures.shipping, models: ['fixture'] }]);
    let started = performance.now();
    const session = await agent.session({ servers: [server], timeoutMs: 10 * 60_000 });
    const openMs = performance.now() - started;
    const latencies = await timed(TURNS, async (i) => {
      const turn = await session.send(PROMPT);
      if (turn.outcome !== 'completed' || !turn.response || turn.response.text !== EXPECTED_TEXT)
        throw new Error(`kit turn ${i + 1} ended ${turn.outcome}: ${JSON.stringify(turn.error ?? turn.response)}`);
    });
    started = performance.now();
    await session.close();
    const closeMs = performance.now() - started;
    const result = session.result;
    if (!result) throw new Error('the closed session has no result');
    const calls = result.traceView.toolCalls;
    const correlated = calls.filter((call) => call.jsonrpcId !== null && call.providerCallId !== null).length;
    if (calls.length !== TURNS || correlated !== TURNS)
      throw new Error(`expected ${TURNS} correlated tool calls in the trace, got ${correlated} of ${calls.length}`);
    return { latencies, openMs, closeMs, calls: calls.length, correlated, outcome: result.snapshot.outcome };
  } finally {
    await kit.close();
  }
}

function printRow(label, values) {
  const total = values.reduce((sum, value) => sum + value, 0);
  process.stdout.write(
    `${label.padEnd(24)} ${median(values).toFixed(2).padStart(10)} ${percentile(values, 95).toFixed(2).padStart(10)} ` +
      `${total.toFixed(0).padStart(10)}\n`,
  );
}

async function run() {
  const raw = await rawSdk();
  const acp = await rawAcp();
  process.stdout.write(
    `${TURNS} sequential turns (one shipping_quote call each) against the example server over stdio\n`,
  );
  process.stdout.write('path                       median ms     p95 ms   total ms\n');
  printRow('raw SDK tools/call', raw);
  printRow('raw ACP turn (no kit)', acp);
  const kit = await kitSession();
  printRow('kit agent.session turn', kit.latencies);
  const ratio = median(kit.latencies) / median(raw);
  process.stdout.write(
    `kit session open ${kit.openMs.toFixed(0)} ms, close ${kit.closeMs.toFixed(0)} ms, outcome ${kit.outcome}, ` +
      `tool calls in the trace ${kit.calls} (${kit.correlated} with wire and reported evidence)\n`,
  );
  process.stdout.write(
    `ratio kit turn / raw SDK call (median): ${ratio.toFixed(2)}; kit turn / raw ACP turn: ` +
      `${(median(kit.latencies) / median(acp)).toFixed(2)}\n`,
  );
  return { raw, acp, kit, ratio };
}

module.exports = { run };

if (require.main === module) {
  run().catch((error) => {
    process.stderr.write(`${error && error.stack ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
