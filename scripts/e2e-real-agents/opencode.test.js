// The opencode native harness against the real OpenCode CLI, offline: `opencode serve` talks to
// the example server through the kit's capture proxy and to a loopback fake model (Chat
// Completions, as OpenCode's OpenAI-compatible provider speaks it) that scripts one tool call per
// turn. Two turns in one session, a tool outside the run's `tools` refused, usage observed, no
// process left. Uses the built dist; the CLI comes from the real-agent cache (`nativeExecutable`)
// or M3_OPENCODE_EXECUTABLE.
'use strict';

const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { homedir } = require('node:os');
const { StdioServer } = require('../../index.js');
const { FakeModelServer } = require('../../testing.js');
const { exampleServerBin } = require('@sf-m3/example-servers');
const {
  addDescendants,
  alivePids,
  processesUntil,
  untilModelRequested,
  sendWatched,
  useKitAndFakeModel,
} = require('./realAgentTestkit');
const realAgents = require('./realAgents');
const { KEY_ENV, expectFaithfulReplay, recordThenReplay } = require('./realCassettes');

const OPENCODE_VERSION = '1.18.33';

/** The OpenCode binary: the runner's cache, else the env override, else the known cache path. */
function opencodeExecutable() {
  if (process.env.M3_OPENCODE_EXECUTABLE) return process.env.M3_OPENCODE_EXECUTABLE;
  if (typeof realAgents.nativeExecutable === 'function') return realAgents.nativeExecutable('opencode');
  const cache = join(homedir(), '.cache/sf-m3/native-agents');
  return join(cache, `opencode-ai_${OPENCODE_VERSION}`, 'node_modules', 'opencode-linux-x64', 'bin', 'opencode');
}

const executable = opencodeExecutable();
const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });

beforeAll(() => {
  if (!existsSync(executable)) {
    throw new Error(`OpenCode is not installed at ${executable}: run the suite through npm run e2e:real-agents`);
  }
});

/** The fake model: per prompt keyword one call of an `example_*` tool, then an answer quoting its result. */
function scriptedModel() {
  return new FakeModelServer({ maxRequests: 30, maxRounds: 3 })
    .when(
      { lastUserText: /local zone/, afterToolResult: false },
      { toolCalls: [{ name: 'example_shipping_quote', arguments: { weight_kg: 2, zone: 'local' } }] },
    )
    .when(
      { lastUserText: /regional zone/, afterToolResult: false },
      { toolCalls: [{ name: 'example_shipping_quote', arguments: { weight_kg: 3, zone: 'regional' } }] },
    )
    .when(
      { lastUserText: /customer/, afterToolResult: false },
      { toolCalls: [{ name: 'example_normalize_customer', arguments: { name: ' ada ' } }] },
    )
    .when({ lastUserText: /take your time/ }, { content: 'late', delayMs: 60_000 })
    .when({ afterToolResult: true }, (request) => ({
      content: `Result: ${request.messages
        .at(-1)
        .toolResults.map((r) => r.text)
        .join('\n')}`,
    }))
    .when({}, { content: 'ok' });
}

describe('opencode (real CLI) over the opencode harness', () => {
  const env = useKitAndFakeModel(scriptedModel);

  it('runs two turns with a wire tool call each, refuses a tool outside tools, reports usage, leaves no process', async () => {
    const { fake, kit } = env;
    const [agent] = kit.agents([
      { harness: 'opencode', executable, models: ['opencode/big-pickle'], baseUrl: fake.baseUrl },
    ]);
    const started = Date.now();
    const session = await agent.session({
      servers: [example],
      tools: ['example:shipping_quote'],
      timeoutMs: 150_000,
    });
    const {
      turns: [first, second, third],
      result,
      processes,
    } = await sendWatched(session, [
      'Quote a 2 kg parcel to the local zone.',
      'Now a 3 kg parcel to the regional zone.',
      'Normalize the customer name " ada ".',
    ]);
    console.log(`opencode real-CLI session: ${Date.now() - started} ms`);

    expect(result.snapshot.outcome).toBe('completed');
    expect([first.outcome, second.outcome, third.outcome]).toEqual(['completed', 'completed', 'completed']);
    expect(first.response?.text).toContain('"amount":9');
    expect(second.response?.text).toContain('"amount"');
    const view = result.traceView;
    expect(view.runtime).toMatchObject({ kind: 'opencode' });
    expect(view.runtime.kind === 'opencode' && view.runtime.agent.value).toMatchObject({
      name: 'opencode',
      version: OPENCODE_VERSION,
    });
    expect(view.runtime.sessionId.value).toMatch(/^ses_/);
    expect(view.runtime.model.value).toBe('opencode/big-pickle');

    // One shipping_quote per turn crossed the wire through the capture proxy.
    const quotes = view.toolCalls.filter((c) => c.tool.value === 'shipping_quote');
    expect(quotes.map((c) => [c.server, c.turnId, c.wire.state, c.status])).toEqual([
      ['example', first.turnId, 'observed', 'success'],
      ['example', second.turnId, 'observed', 'success'],
    ]);
    expect(quotes.map((c) => c.arguments.value)).toEqual([
      { weight_kg: 2, zone: 'local' },
      { weight_kg: 3, zone: 'regional' },
    ]);
    expect(quotes.map((c) => [c.correlation, c.conflicts])).toEqual([
      ['correlated', []],
      ['correlated', []],
    ]);
    expect(quotes[0].reported.value).toMatchObject({ server: 'example', tool: 'shipping_quote' });
    expect(quotes[0].reported.value.providerCallId).toEqual(expect.any(String));

    // normalize_customer is not in tools: OpenCode never offered it and the server never got it.
    const offered = fake.modelRequests.flatMap((r) => (r.tools ?? []).map((t) => t.name));
    expect(new Set(offered)).toEqual(new Set(['example_shipping_quote']));
    const normalize = view.toolCalls.filter((c) => c.tool.value === 'normalize_customer');
    expect(normalize.every((c) => c.wire.state !== 'observed')).toBe(true);
    expect(view.forTurn(third).toolCalls.every((c) => c.status !== 'success')).toBe(true);

    // The event stream was read: tool parts arrived as message.part.updated events.
    const frames = view.rawMessages.filter((m) => m.source === 'harness').map((m) => String(m.preview.value));
    expect(frames.some((f) => f.includes('"type":"tool"') && f.includes('"status":"running"'))).toBe(true);

    // Usage as OpenCode reports it, cumulative for the session.
    expect(view.summary.usage.state).toBe('observed');
    expect(view.summary.usage.value.inputTokens).toBeGreaterThan(0);
    expect(view.summary.usage.value.outputTokens).toBeGreaterThan(0);

    expect(fake.limitViolations).toEqual([]);
    expect(processes.pids.size).toBeGreaterThanOrEqual(2);
    expect(processes.alive()).toEqual([]);
  });

  it('cancels a turn in flight with POST /session/{id}/abort and leaves no process', async () => {
    const { fake, kit } = env;
    const [agent] = kit.agents([
      { harness: 'opencode', executable, models: ['opencode/big-pickle'], baseUrl: fake.baseUrl },
    ]);
    const started = Date.now();
    const handle = agent.submit('Answer when you like, take your time.', { servers: [example], timeoutMs: 120_000 });
    const pids = await processesUntil(handle, (event) => event.kind === 'turn.created');
    await untilModelRequested(fake, 100);
    addDescendants(pids);
    await handle.cancel();
    const result = await handle.result({ timeoutMs: 30_000 });
    console.log(`opencode real-CLI cancel: ${Date.now() - started} ms`);

    expect(result.snapshot.outcome).toBe('cancelled');
    expect(result.turns[0]?.outcome).toBe('cancelled');
    const aborts = result.trace.events.filter(
      (e) => e.kind === 'provider.event' && e.payload.category === 'session_abort',
    );
    expect(aborts.map((e) => e.payload.answer)).toEqual([true]);
    expect(pids.size).toBeGreaterThanOrEqual(2);
    expect(alivePids(pids)).toEqual([]);
  });

  it('records two trials through the cassette proxy, then replays them with the model stopped and no key', async () => {
    const run = await recordThenReplay({
      servers: [example],
      selection: (origin) => ({
        harness: 'opencode',
        executable,
        baseUrl: `${origin}/v1`,
        apiKeyEnv: KEY_ENV,
        models: ['opencode/big-pickle'],
      }),
    });
    expectFaithfulReplay(run);
    console.log(
      `opencode cassette: ${run.recorded.report.recorded} exchanges recorded, ${run.replayed.report.replayed} replayed`,
    );
  }, 600_000);
});
