// Per-turn overhead of each native harness (claude_code, codex, opencode, pi) over its real CLI
// driven raw with the same fake model: one untimed first turn (it waits for the CLI's startup), then
// N timed turns (default 10), each one shipping_quote call on the example server and an answer built
// from its result. Raw (bench/native/<kind>.js): the CLI started
// with the harness's own arguments and config files, the example server attached directly, turns
// sent in the CLI's protocol until its turn end. Kit: `kit.agents([{ harness: <kind>, executable,
// baseUrl }])` (capture proxy, trace, cleanup). Prints median/p95 per turn and the ratio kit/raw.
// Opt-in per kind: a kind whose CLI is not installed (`npm run e2e:real-agents -- --only <kind>`
// installs it; or M3_<KIND>_EXECUTABLE) or whose driver this build lacks is skipped with a line
// saying so. M3_BENCH_NATIVE_TURNS overrides N.
'use strict';
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { median, percentile, timed } = require('./stats');

const ROOT = path.resolve(__dirname, '..');
const core = require(path.join(ROOT, 'packages/core/dist'));
const { FakeModelServer, offeredTool } = require(path.join(ROOT, 'packages/core/dist/testing'));
const { NATIVE_HARNESSES } = require(path.join(ROOT, 'packages/core/dist/agents/native/nativeHarnesses.js'));
const { nativeExecutable } = require(path.join(ROOT, 'scripts/e2e-real-agents/nativeAgents.js'));
const { exampleServer } = require('./native/rawCli');

const TURNS = Number(process.env.M3_BENCH_NATIVE_TURNS || 10);
const KINDS = ['claude_code', 'codex', 'opencode', 'pi'];
const PROMPT = 'Get a shipping quote for a 2 kg parcel to the local zone.';
const ANSWER = 'A 2 kg parcel to the local zone costs 9 USD.';

/** The fake model: each turn one shipping_quote call, then the answer; side calls get `ok`. */
function scriptedModel() {
  return new FakeModelServer({ maxRequests: 50 * TURNS + 100, maxRounds: TURNS + 6 })
    .when({ tool: 'shipping_quote', afterToolResult: false, lastUserText: 'shipping quote' }, (request) => ({
      toolCalls: [{ name: offeredTool(request, 'shipping_quote'), arguments: { weight_kg: 2, zone: 'local' } }],
    }))
    .when({ afterToolResult: true }, (request) => {
      const text = request.messages
        .at(-1)
        .toolResults.map((r) => r.text)
        .join('\n');
      return { content: /"amount\\*"\s*:\s*9\b/.test(text) ? ANSWER : `unexpected tool result: ${text.slice(0, 80)}` };
    })
    .when({}, { content: 'ok' });
}

function check(kind, side, text) {
  if (!String(text).includes('costs 9 USD')) throw new Error(`${kind} ${side} turn answered ${JSON.stringify(text)}`);
}

/** N turns of the raw CLI (open/close not timed). */
async function rawTurns(raw, executable, fake) {
  const server = exampleServer();
  const session = await raw.open({ executable, baseUrl: fake.baseUrl, origin: fake.origin, model: raw.model, server });
  try {
    const started = performance.now();
    check(raw.kind, 'raw', await session.turn(PROMPT)); // the first turn waits for the CLI's startup
    const firstMs = performance.now() - started;
    return { firstMs, latencies: await timed(TURNS, async () => check(raw.kind, 'raw', await session.turn(PROMPT))) };
  } finally {
    await session.close();
  }
}

/** N turns through the kit's native harness; also times open and close and checks the trace. */
async function kitTurns(kind, model, executable, fake) {
  const kit = new core.MCPTestKit();
  const server = new core.StdioServer({ name: 'example', command: process.execPath, args: exampleServer().args });
  try {
    const baseUrl = kind === 'claude_code' ? fake.origin : fake.baseUrl;
    const [agent] = kit.agents([{ harness: kind, models: [model], executable, baseUrl }]);
    let started = performance.now();
    const session = await agent.session({ servers: [server], timeoutMs: 10 * 60_000 });
    const openMs = performance.now() - started;
    started = performance.now();
    const first = await session.send(PROMPT);
    const firstMs = performance.now() - started;
    if (first.outcome !== 'completed') throw new Error(`${kind} kit first turn ended ${first.outcome}`);
    const latencies = await timed(TURNS, async (i) => {
      const turn = await session.send(PROMPT);
      if (turn.outcome !== 'completed') throw new Error(`${kind} kit turn ${i + 1} ended ${turn.outcome}`);
      check(kind, 'kit', turn.response?.text ?? '');
    });
    started = performance.now();
    const result = await session.close();
    const closeMs = performance.now() - started;
    const wire = result.traceView.toolCalls.filter((c) => c.tool.value === 'shipping_quote' && c.status === 'success');
    if (wire.length !== TURNS + 1) {
      throw new Error(`${kind}: expected ${TURNS + 1} shipping_quote calls in the trace, got ${wire.length}`);
    }
    return { latencies, openMs, firstMs, closeMs, outcome: result.snapshot.outcome };
  } finally {
    await kit.close();
  }
}

function printRow(label, values) {
  const total = values.reduce((sum, value) => sum + value, 0);
  process.stdout.write(
    `${label.padEnd(24)} ${median(values).toFixed(1).padStart(10)} ${percentile(values, 95).toFixed(1).padStart(10)} ` +
      `${total.toFixed(0).padStart(10)}\n`,
  );
}

/** Why a kind cannot run here, or null. */
function skipReason(kind) {
  if (NATIVE_HARNESSES[kind] === undefined) return 'this build has no native driver for it';
  const variable = `M3_${kind.toUpperCase()}_EXECUTABLE`;
  if (!process.env[variable] && nativeExecutable(kind) === null) {
    return `its CLI is not installed (npm run e2e:real-agents -- --only ${kind} installs it, or set ${variable})`;
  }
  return null;
}

async function run() {
  process.stdout.write(
    `${TURNS} sequential turns per kind after a first one (one shipping_quote call each), real CLIs, fake model\n`,
  );
  process.stdout.write('path                       median ms     p95 ms   total ms\n');
  const ratios = {};
  const failed = [];
  for (const kind of KINDS) {
    const reason = skipReason(kind);
    if (reason !== null) {
      process.stdout.write(`${kind}: skipped, ${reason}\n`);
      continue;
    }
    const executable = process.env[`M3_${kind.toUpperCase()}_EXECUTABLE`] || nativeExecutable(kind);
    const driver = require(`./native/${kind}`);
    const fake = scriptedModel();
    await fake.start();
    try {
      const raw = await rawTurns(driver, executable, fake);
      const kit = await kitTurns(kind, driver.model, executable, fake);
      printRow(`${kind} raw CLI turn`, raw.latencies);
      printRow(`${kind} kit turn`, kit.latencies);
      ratios[kind] = median(kit.latencies) / median(raw.latencies);
      process.stdout.write(
        `${kind}: first turn (with the CLI's startup) raw ${raw.firstMs.toFixed(0)} ms, kit open ` +
          `${kit.openMs.toFixed(0)} + first turn ${kit.firstMs.toFixed(0)} ms; kit close ${kit.closeMs.toFixed(0)} ms, ` +
          `outcome ${kit.outcome}; ratio kit turn / raw CLI turn (median): ${ratios[kind].toFixed(2)}\n`,
      );
    } catch (error) {
      // One kind failing does not hide the others' numbers; the bench still fails at the end.
      failed.push(kind);
      process.stdout.write(`${kind}: FAILED ${error && error.stack ? error.stack : String(error)}\n`);
    } finally {
      await fake.close();
    }
  }
  if (failed.length > 0) throw new Error(`native harness bench failed for ${failed.join(', ')}`);
  return { ratios };
}

module.exports = { run };

if (require.main === module) {
  run().catch((error) => {
    process.stderr.write(`${error && error.stack ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
