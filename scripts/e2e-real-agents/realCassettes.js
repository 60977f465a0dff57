// The cassette check of each real native CLI (issue 24 item 5, contract §24): the CLI's trials are
// recorded through the kit's recording proxy against a loopback fake model, then replayed from a
// new book with the fake model stopped, the selection's endpoint at a closed port and no key set.
// Used by the `<kind>.test.js` files (their last test); uses the built dist.
'use strict';

const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { MCPTestKit } = require('../../index.js');
const { FakeModelServer, offeredTool } = require('../../testing.js');
const { toolResultAmounts } = require('./realAgentTestkit');
const { openCassetteBook } = require('../../packages/core/dist/cassettes/FileCassetteBook.js');

/** A loopback port nothing listens on: a CLI pointed there in replay shows that nothing is reached. */
const CLOSED_ORIGIN = 'http://127.0.0.1:9';
/** The key variable the selections read while recording (unset for the replay). */
const KEY_ENV = 'M3_CASSETTE_E2E_KEY';
const KEY = 'sk-m3-cassette-e2e-4b8d1f6a2c9e';
const TEST_FILE = 'real-agents.test.js';
const TEST_NAME = 'real CLI cassette round trip';

/** The prompt of every CLI's round trip. */
const QUOTE_PROMPT = 'Get a shipping quote for a 2 kg parcel to the local zone.';

/**
 * A fake provider for any number of trials: the main loop (shipping_quote offered) gets one
 * shipping_quote call, then `Quoted: <amounts> USD.`; a CLI's side requests (titles, summaries) get `ok`.
 */
function quotingModel() {
  return new FakeModelServer({ maxRequests: 60, maxRounds: 3, defaultReply: { content: 'ok' } })
    .when({ tool: 'shipping_quote', afterToolResult: false }, (request) => ({
      toolCalls: [{ name: offeredTool(request, 'shipping_quote'), arguments: { weight_kg: 2, zone: 'local' } }],
    }))
    .when({ tool: 'shipping_quote', afterToolResult: true }, (request) => ({
      content: `Quoted: ${toolResultAmounts(request).join(', ') || 'nothing'} USD.`,
    }));
}

/** What the replay must reproduce of a trial: outcome, answer, tool calls (reported and on the wire), verdicts. */
async function summarize(kit, result) {
  const verdicts = [];
  for (const name of ['m3.execution.completed.v1', 'm3.tool_call.succeeded.v1']) {
    const v = await kit.evaluate(result, name);
    verdicts.push({ name, status: v.status, score: v.score, rationale: v.rationale });
  }
  return {
    outcome: result.snapshot.outcome,
    answer: result.turns.at(-1)?.response?.text ?? null,
    toolCalls: result.traceView.toolCalls.map((c) => [c.tool.value, c.server, c.status, c.arguments.value]),
    wireCalls: result.trace.events
      .filter((e) => e.kind === 'tool.call_requested' && e.origin === 'wire_observed')
      .map((e) => [e.payload.params.name, e.payload.params.arguments]),
    verdicts,
    cassette: result.snapshot.metadata?.cassette,
    error: result.error ? `${result.error.code}: ${result.error.message}` : null,
  };
}

async function runTrials(book, selection, prompt, servers, trials) {
  const kit = new MCPTestKit({ cassettes: book.scope(TEST_NAME) });
  const summaries = [];
  try {
    for (const agent of kit.agents([selection], { trials })) {
      summaries.push(await summarize(kit, await agent.run(prompt, { servers, timeoutMs: 150_000 })));
    }
  } finally {
    await kit.close();
  }
  return { trials: summaries, report: await book.finish({ fullRun: true }) };
}

/**
 * Records `trials` runs of `prompt` with `selection(origin)` against `makeModel()` (started, then
 * closed), then replays them with `selection(CLOSED_ORIGIN)` and no key. Resolves both runs' trial
 * summaries and reports, the cassette file's text, and the model requests the live fake received.
 */
async function recordThenReplay({ selection, servers, makeModel = quotingModel, prompt = QUOTE_PROMPT, trials = 2 }) {
  const dir = mkdtempSync(join(tmpdir(), 'm3-real-cassette-'));
  const book = (mode) =>
    openCassetteBook({ testFile: join(dir, TEST_FILE), testPath: TEST_FILE, settings: { mode, update: false } });
  const fake = makeModel();
  await fake.start();
  process.env[KEY_ENV] = KEY;
  try {
    const recorded = await runTrials(book('record'), selection(fake.origin), prompt, servers, trials);
    await fake.close();
    delete process.env[KEY_ENV];
    const replayed = await runTrials(book('replay'), selection(CLOSED_ORIGIN), prompt, servers, trials);
    const file = readFileSync(join(dir, '__cassettes__', `${TEST_FILE}.cassette.json`), 'utf8');
    return { recorded, replayed, file, modelRequests: fake.modelRequests };
  } finally {
    delete process.env[KEY_ENV];
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The checks every CLI's round trip must pass (Jest's `expect`). */
function expectFaithfulReplay({ recorded, replayed, file }) {
  const withoutUse = ({ cassette: _cassette, ...rest }) => rest;
  for (const trial of recorded.trials) {
    expect(trial.outcome).toBe('completed');
    expect(trial.answer).toBe('Quoted: 9 USD.');
    expect(trial.wireCalls.length).toBeGreaterThan(0);
  }
  expect(replayed.trials.map(withoutUse)).toEqual(recorded.trials.map(withoutUse));
  expect(recorded.trials.map((t) => t.cassette)).toEqual(recorded.trials.map(() => 'recorded'));
  expect(replayed.trials.map((t) => t.cassette)).toEqual(replayed.trials.map(() => 'replayed'));
  expect(replayed.report.recorded).toBe(0);
  expect(replayed.report.replayed).toBe(recorded.report.recorded);
  for (const secret of [KEY, 'Bearer ', '"x-api-key"', '"authorization"']) expect(file).not.toContain(secret);
}

module.exports = { CLOSED_ORIGIN, KEY_ENV, recordThenReplay, expectFaithfulReplay };
