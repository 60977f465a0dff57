// The codex native harness against the real Codex CLI (0.171.0, `codex app-server`), offline: a
// two-turn session with the example server behind the kit's capture proxy and a loopback fake
// model (OpenAI Responses) that scripts, by content, one shipping_quote call in turn 1 and, in
// turn 2, a normalize_customer call the run's `tools` denies beside a second shipping_quote call.
// The same rules run it twice: with a model slug Codex's catalog does not know (Codex offers MCP
// tools as plain namespaced functions) and with gpt-5.6-sol, which the catalog runs in code mode
// (MCP tools only reachable from JavaScript in its `exec` tool; the fake first lists them with one
// `exec` call, then sends each scripted call as `exec` JavaScript). Other tests: cancel mid-turn,
// and an HTTP (in-process) server by url. Uses the built dist.
'use strict';

const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { homedir } = require('node:os');
const { InProcessServer, StdioServer } = require('../../index.js');
const { FakeModelServer, offeredTool } = require('../../testing.js');
const { createExampleServer, exampleServerBin } = require('@sf-m3/example-servers');
const {
  addDescendants,
  alivePids,
  processesUntil,
  toolResultAmounts,
  untilModelRequested,
  sendWatched,
  useKitAndFakeModel,
} = require('./realAgentTestkit');
const realAgents = require('./realAgents');
const { KEY_ENV, expectFaithfulReplay, recordThenReplay } = require('./realCassettes');

/** The CLI: the native-matrix installer's when it exports one, else M3_CODEX_EXECUTABLE, else the cache path. */
function codexExecutable() {
  if (typeof realAgents.nativeExecutable === 'function') return realAgents.nativeExecutable('codex');
  if (process.env.M3_CODEX_EXECUTABLE) return process.env.M3_CODEX_EXECUTABLE;
  return join(homedir(), '.cache/sf-m3/native-agents/_openai_codex_0.171.0/node_modules/.bin/codex');
}

const executable = codexExecutable();
const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });
const MODEL = 'm3-fake-responses';
const offered = (request) => request.tools.map((t) => t.name);

function scriptedModel() {
  return new FakeModelServer({ maxRequests: 20, maxRounds: 3 })
    .when(
      { tool: 'shipping_quote', afterToolResult: false, lastUserText: 'shipping quote' },
      (request) => ({
        toolCalls: [{ name: offeredTool(request, 'shipping_quote'), arguments: { weight_kg: 2, zone: 'local' } }],
      }),
      { times: 1 },
    )
    .when(
      { tool: 'shipping_quote', afterToolResult: false, lastUserText: 'customer Ada' },
      (request) => ({
        toolCalls: [
          // Codex does not offer the denied tool; the fake asks for it under its namespaced name anyway.
          {
            name: offeredTool(request, 'normalize_customer') ?? 'mcp__example__normalize_customer',
            arguments: { name: 'Ada' },
          },
          { name: offeredTool(request, 'shipping_quote'), arguments: { weight_kg: 5, zone: 'international' } },
        ],
      }),
      { times: 1 },
    )
    .when({ tool: 'shipping_quote', afterToolResult: true }, (request) => ({
      content: `Quoted: ${toolResultAmounts(request).join(', ') || 'nothing'} USD.`,
    }));
}

describe('codex (real CLI) over the native harness', () => {
  beforeAll(() => {
    if (!existsSync(executable)) throw new Error(`Codex not found at ${executable}: run npm run e2e:real-agents`);
  });
  const env = useKitAndFakeModel(scriptedModel);

  /** Runs the two scripted turns with `model`; returns the turns, the closed session's result and the pids seen. */
  async function twoTurns(model) {
    const { fake, kit } = env;
    const [agent] = kit.agents([{ harness: 'codex', executable, baseUrl: fake.baseUrl, models: [model] }]);
    const session = await agent.session({
      servers: [example],
      tools: ['example:shipping_quote'],
      timeoutMs: 150_000,
    });
    const { turns, result, processes } = await sendWatched(session, [
      'Get a shipping quote for a 2 kg parcel to the local zone.',
      'Normalize customer Ada, then quote 5 kg to the international zone.',
    ]);
    const [first, second] = turns;
    return { first, second, result, pids: processes.pids };
  }

  /** What both modes must show: two completed turns, one correlated quote on the wire each, usage, no process left. */
  function expectTwoTurns({ first, second, result, pids }, model) {
    expect([first.outcome, second.outcome, result.snapshot.outcome]).toEqual(['completed', 'completed', 'completed']);
    expect(first.response?.text).toBe('Quoted: 9 USD.');
    expect(second.response?.text).toBe('Quoted: 40 USD.');

    const view = result.traceView;
    expect(view.runtime.kind).toBe('codex');
    expect(view.runtime.agent.value).toMatchObject({ name: 'codex', version: '0.171.0', modelProvider: 'm3' });
    expect(view.runtime.model.value).toBe(model);
    expect(view.runtime.sessionId.value).toMatch(/^[0-9a-f-]{36}$/);

    const quotes = view.toolCalls.filter((c) => c.tool.value === 'shipping_quote');
    expect(quotes.map((c) => [c.server, c.status, c.correlation, c.turnId])).toEqual([
      ['example', 'success', 'correlated', first.turnId],
      ['example', 'success', 'correlated', second.turnId],
    ]);
    expect(quotes.map((c) => c.reported.value.providerCallId)).toEqual(quotes.map((c) => c.providerCallId));
    // The denied normalize_customer never reached the server: no wire call but the two quotes.
    const wireCalls = result.trace.events.filter(
      (e) => e.kind === 'tool.call_requested' && e.origin === 'wire_observed',
    );
    expect(wireCalls.map((e) => e.payload.params.name)).toEqual(['shipping_quote', 'shipping_quote']);

    expect(view.summary.usage.state).toBe('observed');
    expect(view.summary.usage.value.inputTokens).toBeGreaterThan(0);
    expect(view.summary.usage.value.cost).toBeNull(); // Codex reports tokens, never a cost
    expect(env.fake.limitViolations).toEqual([]);
    expect(pids.size).toBeGreaterThanOrEqual(3);
    expect(alivePids(pids)).toEqual([]);
    return quotes;
  }

  it('runs two turns with a tool call on the wire in each, never offers the denied tool, reports usage', async () => {
    const { fake } = env;
    const started = Date.now();
    const run = await twoTurns(MODEL);
    expectTwoTurns(run, MODEL);
    // Only the allowed tool was offered (enabled_tools), with no built-in shell, file or web tool.
    for (const request of fake.modelRequests) {
      expect(request.codeMode).toBeUndefined();
      expect(offered(request)).toContain('mcp__example__shipping_quote');
      expect(offered(request)).not.toContain('mcp__example__normalize_customer');
      expect(
        offered(request).filter((t) => /exec_command|write_stdin|apply_patch|web_search|view_image/.test(t)),
      ).toEqual([]);
    }
    expect(fake.answers.map((a) => a.kind)).toEqual(['rule', 'rule', 'rule', 'rule']);
    console.log(`codex real-CLI two-turn session: ${Date.now() - started} ms`);
  });

  it('runs the same rules against gpt-5.6-sol in code mode: calls made from exec JavaScript, on the wire and correlated', async () => {
    const { fake } = env;
    const started = Date.now();
    const run = await twoTurns('gpt-5.6-sol');
    const quotes = expectTwoTurns(run, 'gpt-5.6-sol');
    expect(quotes.map((c) => c.reported.value.providerCallId)).toEqual([
      expect.stringMatching(/^exec-/),
      expect.stringMatching(/^exec-/),
    ]);
    // Codex named only the server (a deferred namespace): the fake listed the nested tools once, with exec.
    expect(fake.answers.map((a) => a.kind)).toEqual(['discovery', 'rule', 'rule', 'rule', 'rule']);
    for (const request of fake.modelRequests.slice(1)) {
      expect(request.codeMode).toBe(true);
      expect(request.tools.find((t) => t.name === 'mcp__example__shipping_quote')).toMatchObject({ codeMode: true });
      expect(offered(request)).not.toContain('mcp__example__normalize_customer');
      expect(offered(request).filter((t) => /exec_command|write_stdin|web_search|view_image/.test(t))).toEqual([]);
    }
    // The denied call was JavaScript calling a nested tool Codex does not have: a failed script.
    const denied = fake.modelRequests.at(-1).messages.at(-1).toolResults;
    expect(denied.map((r) => [r.name, r.isError])).toEqual([
      ['mcp__example__normalize_customer', true],
      ['mcp__example__shipping_quote', false],
    ]);
    expect(denied[0].text).toMatch(/is not a function/);
    console.log(`codex real-CLI code-mode two-turn session: ${Date.now() - started} ms`);
  });

  it('cancel mid-turn sends turn/interrupt to the real CLI, finishes cancelled and leaves no process', async () => {
    await env.fake.close(); // a model that takes its time, so the turn is in flight when cancelled
    env.fake = new FakeModelServer({ maxRequests: 5 }).when({}, { content: 'too late', delayMs: 20_000 });
    const { fake, kit } = env;
    await fake.start();
    const [agent] = kit.agents([{ harness: 'codex', executable, baseUrl: fake.baseUrl, models: [MODEL] }]);
    const handle = agent.submit('Take your time.', { servers: [example], timeoutMs: 60_000 });
    const pids = await processesUntil(
      handle,
      (event, seen) => event.kind === 'raw.frame' && event.turnId !== undefined && seen.size > 0,
    );
    await untilModelRequested(fake, 50);
    addDescendants(pids);
    const started = Date.now();
    await handle.cancel();
    const result = await handle.result({ timeoutMs: 15_000 });

    expect(result.snapshot.outcome).toBe('cancelled');
    expect(result.turns[0].outcome).toBe('cancelled');
    const sent = result.traceView.rawMessages.filter((m) => m.source === 'harness' && m.direction === 'sdk_to_harness');
    expect(sent.some((m) => String(m.preview.value).includes('"turn/interrupt"'))).toBe(true);
    expect(alivePids(pids)).toEqual([]);
    console.log(`codex real-CLI cancel to clean exit: ${Date.now() - started} ms`);
  });

  it('reaches an HTTP (in-process) server through its url behind the reverse proxy', async () => {
    const { fake, kit } = env;
    const shop = new InProcessServer({ name: 'shop', factory: createExampleServer });
    const [agent] = kit.agents([{ harness: 'codex', executable, baseUrl: fake.baseUrl, models: [MODEL] }]);
    const result = await agent.run('Get a shipping quote for a 2 kg parcel to the local zone.', {
      servers: [shop],
      timeoutMs: 150_000,
    });
    expect(result.snapshot.outcome).toBe('completed');
    expect(result.turns[0].response?.text).toBe('Quoted: 9 USD.');
    expect(result.traceView.toolCalls.map((c) => [c.server, c.status, c.correlation])).toEqual([
      ['shop', 'success', 'correlated'],
    ]);
  });

  it('records two trials through the cassette proxy, then replays them with the model stopped and no key', async () => {
    const run = await recordThenReplay({
      servers: [example],
      selection: (origin) => ({
        harness: 'codex',
        executable,
        baseUrl: `${origin}/v1`,
        apiKeyEnv: KEY_ENV,
        models: [MODEL],
      }),
    });
    expectFaithfulReplay(run);
    console.log(
      `codex cassette: ${run.recorded.report.recorded} exchanges recorded, ${run.replayed.report.replayed} replayed`,
    );
  }, 600_000);
});
