// An LLM judge, tested offline against the fake Chat Completions server.
import { LLMJudge } from 'sf-m3';
import { FakeChatCompletionsServer } from 'sf-m3/testing';
import { exampleServer } from './servers';

// The model here is a fake this file starts itself: offline and deterministic already, and the
// tests read the requests it received. So no cassette (contract §24): `mode: 'off'`, live, nothing
// written, in `npm run examples` with and without CI=true (whose default would replay).
describe.m3('llm judge', { cassettes: { mode: 'off' } }, () => {
  const model = new FakeChatCompletionsServer();
  let judge: LLMJudge;

  beforeAll(async () => {
    const { baseUrl } = await model.start();
    judge = new LLMJudge({ model: 'fixture-judge', baseUrl, auth: 'none', responseMode: 'json_text', threshold: 0.8 });
  });
  afterAll(() => model.close());

  test('a judge scores an answer against a rubric', async () => {
    model.enqueue({ content: JSON.stringify({ score: 0.9, rationale: 'quotes the local rate', abstain: false }) });
    const client = await m3Kit.direct(exampleServer).connect();
    const quote = await client.callTool('shipping_quote', { weight_kg: 2, zone: 'local' });

    const verdict = await m3Kit.judgeResponse({
      name: 'example.quote.correctness.v1',
      input: 'Quote 2 kg local',
      expected: 'USD 9',
      actual: JSON.stringify(quote.structuredContent),
      judge,
      executionId: client.executionId,
    });
    expect(verdict).toMatchObject({ status: 'passed', score: 0.9 });
    expect((model.requests[0]?.body as { model?: string }).model).toBe('fixture-judge');
  });

  test('a judge that abstains records an error verdict instead of throwing', async () => {
    model.enqueue({ content: JSON.stringify({ score: null, rationale: 'cannot tell', abstain: true }) });
    const verdict = await m3Kit.judgeResponse({
      name: 'example.quote.correctness.v1',
      input: 'Quote 2 kg local',
      expected: 'USD 9',
      actual: 'no idea',
      judge,
    });
    expect(verdict.status).toBe('error');
    expect(verdict.metrics.errorCode).toBe('judge_abstained');
  });

  test('text can be asserted with a judge', async () => {
    model.enqueue({ content: JSON.stringify({ score: 1, rationale: 'exact', abstain: false }) });
    await expect('USD 9').toSatisfyJudge(judge, { input: 'Quote 2 kg local', expected: 'USD 9' });
  });
});
