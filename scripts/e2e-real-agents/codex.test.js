// The codex native harness against the real Codex CLI (0.171.0, `codex app-server`), offline: a
// two-turn session with the example server behind the kit's capture proxy and a loopback fake
// model (OpenAI Responses) that scripts, by content, one shipping_quote call in turn 1 and, in
// turn 2, a normalize_customer call the run's `tools` denies beside a second shipping_quote call.
// The model slug is one Codex's catalog does not know, so Codex offers MCP tools as plain namespaced
// functions. A second test runs gpt-5.6-sol, which Codex's catalog runs in code mode (MCP tools only
// reachable from JavaScript in its `exec` tool): the fake answers with a raw Responses stream holding
// that `exec` call. Uses the built dist.
'use strict';

const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { homedir } = require('node:os');
const { MCPTestKit, StdioServer } = require('../../index.js');
const { FakeModelServer, offeredTool } = require('../../testing.js');
const { exampleServerBin } = require('@sf-m3/example-servers');
const { descendantsOf, isAlive } = require('../../packages/core/dist/transport/processTree.js');
const realAgents = require('./realAgents');

/** The CLI: the native-matrix installer's when it exports one, else M3_CODEX_EXECUTABLE, else the cache path. */
function codexExecutable() {
  if (typeof realAgents.nativeExecutable === 'function') return realAgents.nativeExecutable('codex');
  if (process.env.M3_CODEX_EXECUTABLE) return process.env.M3_CODEX_EXECUTABLE;
  return join(homedir(), '.cache/sf-m3/native-agents/_openai_codex_0.171.0/node_modules/.bin/codex');
}

const executable = codexExecutable();
const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });
const MODEL = 'm3-fake-responses';
const amountOf = (request) => {
  const text = request.messages
    .at(-1)
    .toolResults.map((r) => r.text)
    .join('\n');
  return [...text.matchAll(/"amount"\s*:\s*([\d.]+)/g)].map((m) => m[1]);
};
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
      content: `Quoted: ${amountOf(request).join(', ') || 'nothing'} USD.`,
    }));
}

/** A raw Responses stream whose one output item is a code-mode `exec` call running `js`. */
function execCall(n, js) {
  const events = [
    { type: 'response.created', response: { id: `resp_exec_${n}` } },
    {
      type: 'response.output_item.done',
      item: { type: 'custom_tool_call', id: `ctc_${n}`, call_id: `call_exec_${n}`, name: 'exec', input: js },
    },
    {
      type: 'response.completed',
      response: {
        id: `resp_exec_${n}`,
        usage: {
          input_tokens: 120,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 30,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 150,
        },
      },
    },
  ];
  const rawBody = events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
  return { rawBody, headers: { 'content-type': 'text/event-stream' } };
}

describe('codex (real CLI) over the native harness', () => {
  let fake;
  let kit;
  beforeAll(() => {
    if (!existsSync(executable)) throw new Error(`Codex not found at ${executable}: run npm run e2e:real-agents`);
  });
  beforeEach(async () => {
    fake = scriptedModel();
    await fake.start();
    kit = new MCPTestKit();
  });
  afterEach(async () => {
    await kit.close();
    await fake.close();
  });

  it('runs two turns with a tool call on the wire in each, never offers the denied tool, reports usage', async () => {
    const started = Date.now();
    const [agent] = kit.agents([{ harness: 'codex', executable, baseUrl: fake.baseUrl, models: [MODEL] }]);
    const session = await agent.session({
      servers: [example],
      tools: ['example:shipping_quote'],
      timeoutMs: 150_000,
    });
    const pids = new Set();
    const note = (event) => {
      if (event.kind === 'process.started' && typeof event.payload.pid === 'number') pids.add(event.payload.pid);
    };
    const { past, stop } = session.follow(note);
    past.forEach(note);
    const sampler = setInterval(() => {
      for (const pid of [...pids]) for (const child of descendantsOf(pid)) pids.add(child);
    }, 100);
    let first;
    let second;
    try {
      first = await session.send('Get a shipping quote for a 2 kg parcel to the local zone.');
      second = await session.send('Normalize customer Ada, then quote 5 kg to the international zone.');
    } finally {
      clearInterval(sampler);
    }
    const result = await session.close();
    stop();

    expect([first.outcome, second.outcome, result.snapshot.outcome]).toEqual(['completed', 'completed', 'completed']);
    expect(first.response?.text).toBe('Quoted: 9 USD.');
    expect(second.response?.text).toMatch(/^Quoted: [\d.]+ USD\.$/);

    const view = result.traceView;
    expect(view.runtime.kind).toBe('codex');
    expect(view.runtime.agent.value).toMatchObject({ name: 'codex', version: '0.171.0', modelProvider: 'm3' });
    expect(view.runtime.model.value).toBe(MODEL);
    expect(view.runtime.sessionId.value).toMatch(/^[0-9a-f-]{36}$/);

    // Only the allowed tool was offered (enabled_tools), with no built-in shell, file or web tool.
    for (const request of fake.modelRequests) {
      expect(offered(request)).toContain('mcp__example__shipping_quote');
      expect(offered(request)).not.toContain('mcp__example__normalize_customer');
      expect(
        offered(request).filter((t) => /exec_command|write_stdin|apply_patch|web_search|view_image/.test(t)),
      ).toEqual([]);
    }
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
    expect(fake.limitViolations).toEqual([]);
    expect(pids.size).toBeGreaterThanOrEqual(3);
    expect([...pids].filter(isAlive)).toEqual([]);
    console.log(`codex real-CLI two-turn session: ${Date.now() - started} ms`);
  });

  it('gpt-5.6-sol in code mode: an MCP call made from exec JavaScript is on the wire and correlated; a denied tool is not there', async () => {
    const started = Date.now();
    await fake.close(); // this test scripts its own model
    fake = new FakeModelServer({ maxRequests: 10, maxRounds: 2 })
      .when(
        { model: 'gpt-5.6-sol', afterToolResult: false, lastUserText: 'shipping quote' },
        execCall(
          1,
          'const q = await tools.mcp__example__shipping_quote({ weight_kg: 2, zone: "local" });\n' +
            'text(JSON.stringify(q.structuredContent));\n' +
            'text(typeof tools.mcp__example__normalize_customer);',
        ),
        { times: 1 },
      )
      .when({ afterToolResult: true }, (request) => ({
        content: `Quoted: ${amountOf(request).join(', ') || 'nothing'} USD (${/undefined/.test(request.messages.at(-1).toolResults[0].text) ? 'normalize not offered' : 'normalize offered'}).`,
      }));
    await fake.start();
    const [agent] = kit.agents([{ harness: 'codex', executable, baseUrl: fake.baseUrl, models: ['gpt-5.6-sol'] }]);
    const result = await agent.run('Get a shipping quote for a 2 kg parcel to the local zone.', {
      servers: [example],
      tools: ['example:shipping_quote'],
      timeoutMs: 150_000,
    });

    expect(result.snapshot.outcome).toBe('completed');
    expect(result.turns[0].response?.text).toBe('Quoted: 9 USD (normalize not offered).');
    const view = result.traceView;
    expect(view.runtime.model.value).toBe('gpt-5.6-sol');
    expect(view.toolCalls.map((c) => [c.tool.value, c.status, c.correlation])).toEqual([
      ['shipping_quote', 'success', 'correlated'],
    ]);
    expect(view.toolCalls[0].reported.value.providerCallId).toMatch(/^exec-/);
    expect(view.summary.usage.value.inputTokens).toBeGreaterThan(0);
    expect(fake.limitViolations).toEqual([]);
    console.log(`codex real-CLI code-mode turn: ${Date.now() - started} ms`);
  });

  it('cancel mid-turn sends turn/interrupt to the real CLI, finishes cancelled and leaves no process', async () => {
    await fake.close(); // a model that takes its time, so the turn is in flight when cancelled
    fake = new FakeModelServer({ maxRequests: 5 }).when({}, { content: 'too late', delayMs: 20_000 });
    await fake.start();
    const [agent] = kit.agents([{ harness: 'codex', executable, baseUrl: fake.baseUrl, models: [MODEL] }]);
    const handle = agent.submit('Take your time.', { servers: [example], timeoutMs: 60_000 });
    const pids = new Set();
    for await (const event of handle.events()) {
      if (event.kind === 'process.started' && typeof event.payload.pid === 'number') pids.add(event.payload.pid);
      if (event.kind === 'raw.frame' && event.turnId !== undefined && pids.size > 0) break;
    }
    while (fake.modelRequests.length === 0) await new Promise((r) => setTimeout(r, 50));
    for (const pid of [...pids]) for (const child of descendantsOf(pid)) pids.add(child);
    const started = Date.now();
    await handle.cancel();
    const result = await handle.result({ timeoutMs: 15_000 });

    expect(result.snapshot.outcome).toBe('cancelled');
    expect(result.turns[0].outcome).toBe('cancelled');
    const sent = result.traceView.rawMessages.filter((m) => m.source === 'harness' && m.direction === 'sdk_to_harness');
    expect(sent.some((m) => String(m.preview.value).includes('"turn/interrupt"'))).toBe(true);
    expect([...pids].filter(isAlive)).toEqual([]);
    console.log(`codex real-CLI cancel to clean exit: ${Date.now() - started} ms`);
  });
});
