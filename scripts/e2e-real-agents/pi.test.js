// The pi harness against the real Pi CLI (@mariozechner/pi-coding-agent), offline: Pi's `--mode rpc`
// with the kit's MCP extension, the example server behind the capture proxy, and a loopback fake
// model (Chat Completions) scripted by content. Two turns with a tool call on the wire in each, a
// tool the run's policy denies, usage as Pi reports it, and no process left. Uses the built dist.
// The CLI: `nativeExecutable('pi')` from realAgents.js when the runner provides it, else
// M3_PI_EXECUTABLE, else the copy installed in ~/.cache/sf-m3/native-agents.
'use strict';

const { existsSync } = require('node:fs');
const { homedir } = require('node:os');
const { join } = require('node:path');
const { StdioServer } = require('../../index.js');
const { FakeModelServer, offeredTool } = require('../../testing.js');
const { exampleServerBin } = require('@sf-m3/example-servers');
const { sendWatched, toolResultAmounts, useKitAndFakeModel } = require('./realAgentTestkit');
const realAgents = require('./realAgents');
const { KEY_ENV, expectFaithfulReplay, recordThenReplay } = require('./realCassettes');

function piExecutable() {
  const installed = typeof realAgents.nativeExecutable === 'function' ? realAgents.nativeExecutable('pi') : null;
  if (installed) return installed;
  if (process.env.M3_PI_EXECUTABLE) return process.env.M3_PI_EXECUTABLE;
  const cache = join(homedir(), '.cache', 'sf-m3', 'native-agents', '_mariozechner_pi-coding-agent_0.73.1');
  return join(cache, 'node_modules', '.bin', 'pi');
}

const executable = piExecutable();
const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });

beforeAll(() => {
  if (!existsSync(executable)) {
    throw new Error(
      `no Pi CLI at ${executable}: install @mariozechner/pi-coding-agent@0.73.1 there or set M3_PI_EXECUTABLE`,
    );
  }
});

/** Turn 1: a quote, then create_order (denied: Pi never offers it), then an answer; turn 2: another quote. */
function scriptedModel() {
  return new FakeModelServer({ maxRequests: 20, maxRounds: 4 })
    .when(
      { lastUserText: 'local zone', afterToolResult: false },
      (request) => ({
        toolCalls: [{ name: offeredTool(request, 'shipping_quote'), arguments: { weight_kg: 2, zone: 'local' } }],
        usage: { promptTokens: 40, completionTokens: 8 },
      }),
      { times: 1 },
    )
    .when(
      { lastUserText: 'local zone', afterToolResult: 'mcp_example_shipping_quote' },
      () => ({
        toolCalls: [{ name: 'mcp_example_create_order', arguments: { customer_id: 'c1', items: [] } }],
        usage: { promptTokens: 60, completionTokens: 9 },
      }),
      { times: 1 },
    )
    .when({ lastUserText: 'local zone', afterToolResult: true }, () => ({
      content: 'A 2 kg parcel to the local zone costs 9 USD; I could not place the order.',
      usage: { promptTokens: 80, completionTokens: 15 },
    }))
    .when({ lastUserText: 'regional zone', afterToolResult: false }, (request) => ({
      toolCalls: [{ name: offeredTool(request, 'shipping_quote'), arguments: { weight_kg: 3, zone: 'regional' } }],
      usage: { promptTokens: 100, completionTokens: 8 },
    }))
    .when({ lastUserText: 'regional zone', afterToolResult: true }, (request) => {
      const [amount] = toolResultAmounts(request);
      return {
        content: `3 kg regional costs ${amount ?? 'unknown'} USD.`,
        usage: { promptTokens: 120, completionTokens: 10 },
      };
    });
}

describe('pi (real CLI) over the pi harness', () => {
  const env = useKitAndFakeModel(scriptedModel);

  it('runs two turns with a wire tool call in each, keeps a denied tool off the wire, reports usage, leaves nothing', async () => {
    const { fake, kit } = env;
    const started = Date.now();
    const [agent] = kit.agents([{ harness: 'pi', executable, models: ['fake/fake-model'], baseUrl: fake.baseUrl }]);
    const session = await agent.session({
      servers: [example],
      tools: ['example:shipping_quote'],
      timeoutMs: 120_000,
    });
    const {
      turns: [first, second],
      result,
      processes,
    } = await sendWatched(
      session,
      ['Get a shipping quote for a 2 kg parcel to the local zone, then order it.', 'And 3 kg to the regional zone?'],
      50,
    );

    expect([first.outcome, second.outcome]).toEqual(['completed', 'completed']);
    expect(first.response?.text).toContain('costs 9 USD');
    expect(second.response?.text).toMatch(/3 kg regional costs [\d.]+ USD/);
    expect(result.snapshot.outcome).toBe('completed');
    const view = result.traceView;
    expect(view.runtime.kind).toBe('pi');
    expect(view.runtime).toMatchObject({
      agent: { state: 'observed', value: { name: 'pi', version: '0.73.1' } },
      model: { state: 'observed', value: 'fake/fake-model' },
      sessionId: { state: 'observed' },
    });

    // Both quotes crossed the wire, one per turn, reported by Pi with its toolCallId.
    const quotes = view.toolCalls.filter((c) => c.tool.value === 'shipping_quote');
    expect(quotes.map((c) => [c.server, c.correlation, c.status, c.conflicts])).toEqual([
      ['example', 'correlated', 'success', []],
      ['example', 'correlated', 'success', []],
    ]);
    expect(quotes.map((c) => c.turnId)).toEqual([first.turnId, second.turnId]);
    // Pi offered the model the allowed MCP tool only: no built-in tool (read, bash...), not the denied one.
    const offered = new Set(fake.modelRequests.flatMap((r) => (r.body.tools ?? []).map((t) => t.function.name)));
    expect([...offered]).toEqual(['mcp_example_shipping_quote']);
    // Pi answered the model's call to it with "tool not found": reported, failed, not on the wire.
    const orders = view.toolCalls.filter((c) => c.tool.value === 'create_order');
    expect(orders.map((c) => [c.correlation, c.status, c.wire.state])).toEqual([
      ['reported_only', 'tool_error', 'not_emitted'],
    ]);
    // What reached the server: the two quotes, each with Pi's toolCallId in _meta.
    const wire = result.trace.events.filter((e) => e.kind === 'tool.call_requested' && e.origin === 'wire_observed');
    expect(wire.map((e) => e.payload.params.name)).toEqual(['shipping_quote', 'shipping_quote']);
    expect(wire.map((e) => e.payload.params._meta['pi/toolCallId'])).toEqual(
      quotes.map((c) => c.reported.value.providerCallId),
    );

    expect(view.summary.usage.state).toBe('observed');
    expect(view.summary.usage.value).toMatchObject({ inputTokens: 400, outputTokens: 50, totalTokens: 450 });
    expect(fake.limitViolations).toEqual([]);

    expect(processes.pids.size).toBeGreaterThanOrEqual(3);
    expect(processes.alive()).toEqual([]);
    console.log(`pi real CLI e2e: ${Date.now() - started} ms`);
  });

  it('records two trials through the cassette proxy, then replays them with the model stopped and no key', async () => {
    const run = await recordThenReplay({
      servers: [example],
      selection: (origin) => ({
        harness: 'pi',
        executable,
        baseUrl: `${origin}/v1`,
        apiKeyEnv: KEY_ENV,
        models: ['fake/fake-model'],
      }),
    });
    expectFaithfulReplay(run);
    console.log(
      `pi cassette: ${run.recorded.report.recorded} exchanges recorded, ${run.replayed.report.replayed} replayed`,
    );
  }, 600_000);
});
