// The `openai` harness — the kit's own tool-calling loop over Chat Completions — against
// `FakeChatCompletionsServer`, a loopback fake model scripted by what each request contains, so the
// suite is offline and deterministic. Every tool call the model asks for runs through the kit's own
// MCP client, so the `tools/call` exchange is wire evidence in the execution's trace.
import { FakeChatCompletionsServer, lastUserText, trailingToolResults } from 'sf-m3/testing';
import { exampleServer } from './servers';
import { expectLocalThenRegionalQuote } from './shippingQuotes';

/**
 * The fake model, scripted by request content rather than order (the first matching rule answers):
 * a question naming a parcel asks for `shipping_quote` (MCP tools are offered as functions named
 * `<server>__<tool>`); a request carrying that tool's result is answered with the result's text.
 */
function shippingModel(): FakeChatCompletionsServer {
  return new FakeChatCompletionsServer()
    .when({ afterToolResult: 'example-mcp__shipping_quote' }, (request) => ({
      content: `The quote is ${trailingToolResults(request)[0]?.text ?? 'missing'}.`,
    }))
    .when({ lastUserText: /\d+ kg (local|regional|international)/, afterToolResult: false }, (request) => {
      const [, weight, zone] = /(\d+(?:\.\d+)?) kg (\w+)/.exec(lastUserText(request))!;
      return {
        toolCalls: [{ name: 'example-mcp__shipping_quote', arguments: { weight_kg: Number(weight), zone: zone! } }],
      };
    })
    .when({}, { content: 'Ask me for a parcel quote, e.g. "2 kg local".' });
}

// The model here is a fake this file starts itself: offline and deterministic already, and the
// tests read the requests it received. So no cassette (contract §24): `mode: 'off'`, live, nothing
// written, in `npm run examples` with and without CI=true (whose default would replay).
describe.m3('openai agent', { cassettes: { mode: 'off' } }, () => {
  const model = shippingModel();
  let baseUrl: string;

  beforeAll(async () => {
    ({ baseUrl } = await model.start());
  });
  afterAll(() => model.close());

  // `auth: 'none'` sends no key; it is allowed for loopback endpoints only.
  const agent = () => m3Kit.agents([{ harness: 'openai', model: 'fake-shipping-model', baseUrl, auth: 'none' }])[0]!;

  test('a two-turn session: each turn calls the tool on the wire and answers with its result', async () => {
    const session = await agent().session({ servers: [exampleServer] });
    const first = await session.send('Quote a 2 kg local parcel');
    const second = await session.send('And 3 kg regional?');
    const result = await session.close();

    expect(result).toBeCompleted();
    expect(first.response?.text).toBe('The quote is {"amount":9,"currency":"USD"}.');
    expect(second.response?.text).toBe('The quote is {"amount":15.5,"currency":"USD"}.');
    // Each call on the wire in its own turn, and the model's tool calls correlated with the wire.
    expectLocalThenRegionalQuote(result, first, second);
    expect(result.traceView.runtime.kind).toBe('openai');
    // The second turn carries the whole conversation, the first turn's tool exchange included.
    expect(model.modelRequests.at(-1)!.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
      'tool',
    ]);
  });

  test('a tools policy offers only the allowed tools and denies a call to any other', async () => {
    const requestsBefore = model.modelRequests.length;
    const result = await agent().run('Quote a 2 kg local parcel', {
      servers: [exampleServer],
      tools: ['example-mcp:normalize_customer'],
    });

    expect(model.modelRequests[requestsBefore]!.tools.map((tool) => tool.name)).toEqual([
      'example-mcp__normalize_customer',
    ]);
    // The model asked for shipping_quote anyway: the call was refused and never reached the server.
    expect(result).not.toHaveToolCall('shipping_quote');
    expect(result).toHaveToolCall('shipping_quote', { evidence: 'reported' });
    const [call] = result.traceView.toolCalls;
    expect(call?.correlation).toBe('reported_only');
    expect(result.turns[0]?.response?.text).toMatch(/not allowed by this test's tool policy/);
  });

  test('executions carry harness, model and trial labels for aggregation', async () => {
    const result = await agent().run('Quote a 1 kg international parcel', { servers: [exampleServer] });
    const record = await m3Kit.store.getExecution(result.executionId);
    expect(record.kind).toBe('agent');
    expect(record.labels).toMatchObject({ harness: 'openai', model: 'fake-shipping-model', trial: '1' });
    expect(record.labels.metadata).toMatchObject({ harness_config: 'openai:fake-shipping-model' });
  });
});
