// Agent tests in CI without a model (contract §24): this suite's model traffic was recorded once
// into `__cassettes__/cassettes.test.ts.cassette.json` (committed beside it) and is replayed from
// there. No model runs: its endpoint is a closed port, and replay sends nothing anywhere, so a
// request the cassette does not hold fails with `CassetteMissError` instead of reaching a model.
// The MCP server still runs: the agent's tool calls really cross the wire, every trial.
//
// Re-record after changing a prompt, a tool or a model (`examples/cassettes/record.js` starts a
// fake model standing in for your provider, then runs `m3 test --update-cassettes` on this file):
//   node examples/cassettes/record.js
import { LLMJudge } from 'sf-m3';
import { expectLocalThenRegionalQuote } from './shippingQuotes';
import { exampleServer } from './servers';

/** Where the model was when it was recorded; in replay nothing is sent there (port 9 is closed). */
const baseUrl = process.env.SHIPPING_MODEL_URL ?? 'http://127.0.0.1:9/v1';

// `mode: 'replay'` keeps this suite offline in `npm run examples` with or without CI=true (the
// default elsewhere is `auto`, which would call the closed port for a missing recording).
// `--update-cassettes` and M3_CASSETTES outrank it, which is how it is re-recorded.
describe.m3(
  'cassettes',
  {
    cassettes: { mode: 'replay' },
    // `auth: 'none'` (no key) is allowed for loopback endpoints; a real provider takes `apiKeyEnv`,
    // and in replay a missing key is fine: the harness gets a placeholder that never leaves the kit.
    agents: [{ harness: 'openai', models: ['shipping-model'], baseUrl, auth: 'none' }],
    servers: [exampleServer],
    trials: 2,
  },
  () => {
    test.m3('a two-turn quote, each trial from its own recording', async ({ agent, server }) => {
      const session = await agent!.session({ servers: [server!] });
      const first = await session.send('Quote a 2 kg local parcel');
      const second = await session.send('And 3 kg regional?');
      const result = await session.close();

      expect(result).toBeCompleted();
      expect(first.response?.text).toBe('The quote is {"amount":9,"currency":"USD"}.');
      expect(second.response?.text).toBe('The quote is {"amount":15.5,"currency":"USD"}.');
      expectLocalThenRegionalQuote(result, first, second);

      // The execution says how it ran: `metadata.cassette` is a label to filter and group by, and
      // m3 ui and the HTML report mark the execution `replayed`.
      const record = await m3Kit.store.getExecution(result.executionId);
      const expected = m3Kit.cassettes?.mode === 'record' ? 'recorded' : 'replayed';
      expect(record.labels.metadata).toMatchObject({ cassette: expected });
    });
  },
);

describe.m3('cassettes for judges', { cassettes: { mode: 'replay' } }, () => {
  test('a judge verdict replayed from the recording', async () => {
    const judge = new LLMJudge({
      model: 'shipping-judge',
      baseUrl,
      auth: 'none',
      responseMode: 'json_text',
      threshold: 0.8,
    });
    // `toSatisfyJudge` sends the judge's request through the test's cassette (channel `judge shipping-judge`).
    await expect('The quote is 9 USD.').toSatisfyJudge(judge, { input: 'Quote 2 kg local', expected: 'USD 9' });
  });
});
