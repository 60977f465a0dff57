import OpenAI from 'openai';
import { FakeModelServer } from './FakeModelServer';
import { postJson } from './fakeModel.testkit';

describe('hard limits', () => {
  let fake: FakeModelServer;
  afterEach(() => fake.close());

  it('maxRequests refuses every model request past the limit with a 400 naming the limit and how to raise it', async () => {
    fake = new FakeModelServer({ maxRequests: 2, defaultReply: { content: 'ok' } });
    const { baseUrl } = await fake.start();
    const client = new OpenAI({ apiKey: 'k-123', baseURL: baseUrl, maxRetries: 2 });
    const ask = () => client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    await ask();
    await ask();
    const refused = ask();
    await expect(refused).rejects.toMatchObject({ status: 400 });
    await expect(refused).rejects.toThrow(/maxRequests limit of 2 reached .*maxRequests: 4/);
    // A 400 is not retried by the SDK: the loop fails on the first refused request.
    expect(fake.modelRequests).toHaveLength(3);
    expect(fake.limitViolations).toEqual([
      { limit: 'maxRequests', value: 2, observed: 3, requestNumber: 3, message: expect.stringContaining('runaway') },
    ]);
    expect(fake.answers.at(-1)).toEqual({ kind: 'limit', limit: 'maxRequests' });
    // Side requests are not model requests and are still answered.
    expect((await fetch(`${baseUrl}/models`)).status).toBe(200);
  });

  it('maxRounds counts tool-call rounds in the request history, per conversation, in every dialect', async () => {
    fake = new FakeModelServer({ maxRounds: 2 }).when({}, { toolCalls: [{ name: 'loop', arguments: {} }] });
    const { origin } = await fake.start();
    const round = (n: number) =>
      Array.from({ length: n }, (_, i) => [
        { role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'loop', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: 'again' }] },
      ]).flat();
    const post = (n: number) =>
      postJson(`${origin}/v1/messages`, {
        model: 'c',
        max_tokens: 9,
        messages: [{ role: 'user', content: 'go' }, ...round(n)],
      });
    expect((await post(0)).status).toBe(200);
    expect((await post(2)).status).toBe(200);
    const refused = await post(3);
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toMatch(
      /maxRounds limit of 2 reached \(this conversation already holds 3 tool-call rounds\).*maxRounds: 4/,
    );
    // Another conversation, short again, is answered: the count comes from each request's own history.
    expect((await post(1)).status).toBe(200);

    const gemini = await postJson(`${origin}/v1beta/models/g:generateContent`, {
      contents: [
        { role: 'user', parts: [{ text: 'go' }] },
        ...[1, 2, 3].flatMap(() => [
          { role: 'model', parts: [{ functionCall: { name: 'loop', args: {} } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'loop', response: { output: 'again' } } }] },
        ]),
      ],
    });
    expect(gemini.status).toBe(400);
    expect(await gemini.json()).toMatchObject({
      error: { status: 'INVALID_ARGUMENT', message: expect.stringContaining('maxRounds') },
    });
    expect(fake.limitViolations.map((v) => [v.limit, v.observed, v.requestNumber])).toEqual([
      ['maxRounds', 3, 3],
      ['maxRounds', 3, 5],
    ]);
  });
});
