// An Agent Client Protocol agent tested the way a user tests their own: `describe.m3` declares the
// agent (a manifest: how to launch it), the servers and the trials; `test.m3` expands to one Jest
// test per server × agent × trial, all sharing one case id. The agent here is the deterministic
// shipping fixture (examples/fixtures/acp): turn 1 quotes 2 kg local, later turns 3 kg regional, and
// a JSON prompt `{ tool, arguments }` is followed exactly. The kit puts its capture proxy between
// the agent and the server, so the trace holds what the agent said and what crossed the wire, and
// the `tools` policy is enforced there. `m3 test --harness acp=other --trials 3` would replace the
// model label and the trials and keep this manifest.
import { shipping } from '../fixtures/acp/agents';
import { exampleServer } from './servers';
import { expectLocalThenRegionalQuote } from './shippingQuotes';

const shippingAgent = { harness: 'acp', manifest: shipping, models: ['fixture'] };

describe.m3('acp shipping', { agents: [shippingAgent], servers: [exampleServer], trials: 2 }, () => {
  test.m3('a two-turn session quotes on the wire and says so', async ({ agent, server, trial, caseId }) => {
    expect(agent!.labels).toEqual({ harness: 'acp', model: 'fixture', trial: String(trial) });
    const session = await agent!.session({ servers: [server!], tools: ['example-mcp:shipping_quote'] });
    const first = await session.send('Quote the usual parcel');
    const second = await session.send('And now a regional one');
    const result = await session.close();

    expect(result).toBeCompleted();
    expect(result.snapshot.caseId).toBe(caseId);
    // The frames the proxy saw between the agent and the server, per turn, and the agent's own
    // report of them (ACP tool_call updates) correlated with the wire: see shippingQuotes.ts.
    expectLocalThenRegionalQuote(result, first, second);
    expect(result.traceView.runtime.kind).toBe('acp');

    // What the agent said, turn by turn.
    expect(first.response?.text).toBe('quoted local');
    expect(second.response?.text).toBe('quoted regional');
    const said = result.traceView.messages.filter((m) => m.role === 'assistant').map((m) => m.text);
    expect(said).toEqual(['quoted local', 'quoted regional']);
  });

  test.m3('a tool outside the policy is refused at the wire and never reaches the server', async ({ agent }) => {
    const prompt = JSON.stringify({ tool: 'normalize_customer', arguments: { name: 'Ada Lovelace' } });
    const result = await agent!.run(prompt, { servers: [exampleServer], tools: ['example-mcp:shipping_quote'] });

    expect(result).toBeCompleted();
    const [call] = result.traceView.toolCalls;
    expect(call?.tool.value).toBe('normalize_customer');
    expect(call?.policy).toMatchObject({ decision: 'denied' });
    expect(result).not.toHaveToolCall('normalize_customer', { status: 'success' });
    expect(result.turns[0]?.response?.text).toMatch(/^tool call denied: /);
  });
});
