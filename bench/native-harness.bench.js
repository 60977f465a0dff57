// Per-turn overhead of each native harness (claude_code, codex, opencode, pi) over its real CLI
// driven raw with the same fake model. Raw (bench/native/<kind>.js): the CLI started with the
// harness's own arguments and config files, the example server attached directly, turns sent in the
// CLI's protocol until its turn end. Kit: `kit.agents([{ harness: <kind>, executable, baseUrl }])`
// (capture proxy, trace, cleanup). Both sessions are open at once: a first turn each (it waits for
// the CLI's startup, reported apart), then N turns (default 10) alternating raw and kit, each one
// shipping_quote call on the example server and an answer built from its result, so load on the
// machine weighs on both sides alike. Prints median/p95 per turn and the ratio kit/raw.
// Opt-in per kind: a kind whose CLI is not installed (`npm run e2e:real-agents -- --only <kind>`
// installs it; or M3_<KIND>_EXECUTABLE) or whose driver this build lacks is skipped with a line
// saying so. M3_BENCH_NATIVE_TURNS overrides N.
'use strict';
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { median, percentile } = require('./stats');

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

/** Resolves how long `work` took, in ms. */
async function time(work) {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/**
 * Both sides of one kind at once, so load on the machine weighs on both alike: the raw session and
 * the kit session are opened (each first turn, which waits for the CLI's startup, timed apart),
 * then their N turns alternate (raw first on even turns, kit first on odd ones). The kit's trace
 * must hold every turn's shipping_quote call.
 */
async function measureKind(kind, driver, executable, fake) {
  const raw = await driver.open({
    executable,
    baseUrl: fake.baseUrl,
    origin: fake.origin,
    model: driver.model,
    server: exampleServer(),
  });
  const kit = new core.MCPTestKit();
  try {
    const rawFirstMs = await time(async () => check(kind, 'raw', await raw.turn(PROMPT)));
    const server = new core.StdioServer({ name: 'example', command: process.execPath, args: exampleServer().args });
    const baseUrl = kind === 'claude_code' ? fake.origin : fake.baseUrl;
    const [agent] = kit.agents([{ harness: kind, models: [driver.model], executable, baseUrl }]);
    let session;
    const openMs = await time(async () => {
      session = await agent.session({ servers: [server], timeoutMs: 10 * 60_000 });
    });
    const kitTurn = async () => {
      const turn = await session.send(PROMPT);
      if (turn.outcome !== 'completed') throw new Error(`${kind} kit turn ended ${turn.outcome}`);
      check(kind, 'kit', turn.response?.text ?? '');
    };
    const rawTurn = async () => check(kind, 'raw', await raw.turn(PROMPT));
    const kitFirstMs = await time(kitTurn);
    const rawLatencies = [];
    const kitLatencies = [];
    for (let i = 0; i < TURNS; i += 1) {
      if (i % 2 === 0) {
        rawLatencies.push(await time(rawTurn));
        kitLatencies.push(await time(kitTurn));
      } else {
        kitLatencies.push(await time(kitTurn));
        rawLatencies.push(await time(rawTurn));
      }
    }
    let result;
    const closeMs = await time(async () => {
      result = await session.close();
    });
    const wire = result.traceView.toolCalls.filter((c) => c.tool.value === 'shipping_quote' && c.status === 'success');
    if (wire.length !== TURNS + 1) {
      throw new Error(`${kind}: expected ${TURNS + 1} shipping_quote calls in the trace, got ${wire.length}`);
    }
    return { rawLatencies, kitLatencies, rawFirstMs, kitFirstMs, openMs, closeMs, outcome: result.snapshot.outcome };
  } finally {
    await raw.close();
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
    `${TURNS} turns per kind after a first one, raw and kit alternating (one shipping_quote call each), real CLIs, fake model\n`,
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
      const m = await measureKind(kind, driver, executable, fake);
      printRow(`${kind} raw CLI turn`, m.rawLatencies);
      printRow(`${kind} kit turn`, m.kitLatencies);
      ratios[kind] = median(m.kitLatencies) / median(m.rawLatencies);
      process.stdout.write(
        `${kind}: first turn (with the CLI's startup) raw ${m.rawFirstMs.toFixed(0)} ms, kit open ` +
          `${m.openMs.toFixed(0)} + first turn ${m.kitFirstMs.toFixed(0)} ms; kit close ${m.closeMs.toFixed(0)} ms, ` +
          `outcome ${m.outcome}; ratio kit turn / raw CLI turn (median): ${ratios[kind].toFixed(2)}\n`,
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
