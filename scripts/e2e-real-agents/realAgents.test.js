// The acp harness against two real agents, offline: each talks to the example server (through the
// kit's capture proxy) and to a loopback fake model that scripts one shipping_quote call, matched by
// content, then a final answer built from the tool result it was sent back. Run by run.js (which
// installs the agents and builds the repository); uses the built dist.
'use strict';

const { StdioServer } = require('../../index.js');
const { FakeModelServer, offeredTool } = require('../../testing.js');
const { exampleServerBin } = require('@sf-m3/example-servers');
const { sendWatched, toolResultAmounts, useKitAndFakeModel } = require('./realAgentTestkit');
const { cacheDir, missingPackages, realAgentManifests } = require('./realAgents');

const cache = cacheDir();
const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });
const PROMPT = 'Get a shipping quote for a 2 kg parcel to the local zone.';

beforeAll(() => {
  const missing = missingPackages(cache);
  if (missing.length > 0) {
    throw new Error(`${missing.join(', ')} not installed in ${cache}: run the suite through npm run e2e:real-agents`);
  }
});

/** The fake model: the shipping_quote call first (once), then an answer quoting the tool's amount. */
function scriptedModel() {
  return (
    new FakeModelServer({ maxRequests: 30, maxRounds: 3 })
      .when(
        { tool: 'shipping_quote', afterToolResult: false, lastUserText: 'shipping quote' },
        (request) => ({
          toolCalls: [{ name: offeredTool(request, 'shipping_quote'), arguments: { weight_kg: 2, zone: 'local' } }],
        }),
        { times: 1 },
      )
      .when({ afterToolResult: true }, (request) => {
        const [amount] = toolResultAmounts(request);
        return { content: `A 2 kg parcel to the local zone costs ${amount ?? 'an unknown amount'} USD.` };
      })
      // Side calls an agent makes on its own (titles, summaries) get a plain answer.
      .when({}, { content: 'ok' })
  );
}

describe.each([
  ['gemini', 'gemini-2.5-flash', 'gemini'],
  ['claude', 'claude-code-default', 'anthropic_messages'],
])('%s (real agent) over the acp harness', (agentName, model, dialect) => {
  const env = useKitAndFakeModel(scriptedModel);

  it('calls shipping_quote on the example server through the fake model and answers with its result', async () => {
    const { fake, kit } = env;
    const manifest = realAgentManifests(cache, fake.origin)[agentName];
    const [agent] = kit.agents([{ harness: 'acp', manifest, models: [model], name: agentName }]);
    const session = await agent.session({ servers: [example], timeoutMs: 150_000 });

    // Every process the run starts: the ones it records, and their descendants sampled while alive.
    const {
      turns: [turn],
      result,
      processes,
    } = await sendWatched(session, [PROMPT]);

    expect(result.snapshot.outcome).toBe('completed');
    expect(turn.outcome).toBe('completed');
    expect(result).toHaveToolCall('shipping_quote', {
      server: 'example',
      arguments: { weight_kg: 2, zone: 'local' },
      status: 'success',
    });
    expect(turn.response?.text).toContain('costs 9 USD');
    expect(result.traceView.runtime.kind).toBe('acp');
    // What the agent reported over ACP and what crossed the wire are one call in the trace, and
    // they agree: Claude Code ACP's real input (after a `{}` placeholder) is the reported input,
    // Gemini CLI reports none, and each agent's result matches the wire result by its text.
    const quotes = result.traceView.toolCalls.filter((c) => c.tool.value === 'shipping_quote');
    expect(quotes.map((c) => [c.server, c.correlation, c.status])).toEqual([['example', 'correlated', 'success']]);
    expect(quotes[0].conflicts).toEqual([]);
    expect(quotes[0].reported.value.arguments).toEqual(
      agentName === 'claude'
        ? { state: 'observed', value: { weight_kg: 2, zone: 'local' } }
        : { state: 'not_emitted', value: null, reason: 'provider_did_not_emit' },
    );

    // The model saw the agent's real wire format, offered the example server's tool, got the result back.
    const requests = fake.modelRequests;
    expect(requests.every((r) => r.dialect === dialect)).toBe(true);
    expect(fake.answers.filter((a) => a.kind === 'rule').map((a) => a.index)).toEqual(expect.arrayContaining([0, 1]));
    expect(fake.limitViolations).toEqual([]);

    expect(processes.pids.size).toBeGreaterThanOrEqual(2);
    expect(processes.alive()).toEqual([]);
  });
});
