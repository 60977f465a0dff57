import OpenAI from 'openai';
import { FakeChatCompletionsServer } from './FakeChatCompletionsServer';

describe('FakeChatCompletionsServer', () => {
  let fake: FakeChatCompletionsServer;
  afterEach(async () => {
    await fake.close();
  });

  it('answers scripted replies in order and records every request', async () => {
    fake = new FakeChatCompletionsServer({
      replies: [{ content: 'hello' }, { content: { score: 1 }, usage: { promptTokens: 3, completionTokens: 4 } }],
    });
    const { baseUrl } = await fake.start();
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const client = new OpenAI({ apiKey: 'test-key-1234', baseURL: baseUrl, maxRetries: 0 });
    const first = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    const second = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'again' }] });
    expect(first.choices[0]?.message.content).toBe('hello');
    expect(first.choices[0]?.finish_reason).toBe('stop');
    expect(second.choices[0]?.message.content).toBe('{"score":1}');
    expect(second.usage).toEqual({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer test-key-1234');
    expect(fake.pendingReplies).toBe(0);
  });

  it('scripts tool calls for tool-calling loops', async () => {
    fake = new FakeChatCompletionsServer().enqueue({
      toolCalls: [
        { name: 'add', arguments: { a: 2, b: 3 } },
        { id: 'call_x', name: 'noop', arguments: '{}' },
      ],
    });
    const { baseUrl } = await fake.start();
    const client = new OpenAI({ apiKey: 'k-123', baseURL: baseUrl, maxRetries: 0 });
    const reply = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'add' }] });
    const choice = reply.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toEqual([
      { id: 'call_1_1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } },
      { id: 'call_x', type: 'function', function: { name: 'noop', arguments: '{}' } },
    ]);
  });

  it('scripts status codes, refusals and raw bodies, serves /chat/completions, and 404s other routes', async () => {
    fake = new FakeChatCompletionsServer({
      replies: [{ status: 503, headers: { 'retry-after': '0' } }, { refusal: 'no' }, { rawBody: 'not json' }],
    });
    const { baseUrl } = await fake.start();
    const root = baseUrl.replace(/\/v1$/, '');
    const post = (path: string) =>
      fetch(root + path, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    const failed = await post('/chat/completions');
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('0');
    const refused = (await (await post('/v1/chat/completions')).json()) as {
      choices: { message: { refusal: string; content: null } }[];
    };
    expect(refused.choices[0]?.message).toMatchObject({ refusal: 'no', content: null });
    expect(await (await post('/v1/chat/completions')).text()).toBe('not json');
    expect((await post('/v1/embeddings')).status).toBe(404);
    const empty = await post('/v1/chat/completions');
    expect(empty.status).toBe(500);
    expect(await empty.text()).toContain('no scripted reply left');
  });

  it('uses the default reply when the queue is empty, and closes idempotently while a reply is delayed', async () => {
    fake = new FakeChatCompletionsServer({ defaultReply: { content: 'default' }, replies: [{ delayMs: 60_000 }] });
    const { baseUrl } = await fake.start();
    const slow = fetch(`${baseUrl}/chat/completions`, { method: 'POST', body: '{}' }).then(
      () => 'answered',
      () => 'dropped',
    );
    while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    const quick = await fetch(`${baseUrl}/chat/completions`, { method: 'POST', body: '{}' });
    expect(((await quick.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content).toBe(
      'default',
    );
    await fake.close();
    await fake.close();
    expect(await slow).toBe('dropped');
  });

  it('chooses a reply with a function of the request, e.g. after a tool result', async () => {
    fake = new FakeChatCompletionsServer({
      defaultReply: (request) => {
        const messages = (request.body as { messages: { role: string; content: string }[] }).messages;
        const toolMessage = messages.find((m) => m.role === 'tool');
        return toolMessage
          ? { content: `The sum is ${toolMessage.content}.` }
          : { toolCalls: [{ id: 'call_add', name: 'add', arguments: { a: 2, b: 3 } }] };
      },
    });
    const { baseUrl } = await fake.start();
    const client = new OpenAI({ apiKey: 'k-123', baseURL: baseUrl, maxRetries: 0 });
    const first = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: '2+3?' }] });
    const call = first.choices[0]!.message.tool_calls![0]!;
    const second = await client.chat.completions.create({
      model: 'm',
      messages: [
        { role: 'user', content: '2+3?' },
        first.choices[0]!.message,
        { role: 'tool', tool_call_id: call.id, content: '5' },
      ],
    });
    expect(second.choices[0]?.message.content).toBe('The sum is 5.');
  });

  it('streams chunks for stream: true, content and tool calls alike', async () => {
    fake = new FakeChatCompletionsServer({
      replies: [{ content: 'hello there' }, { toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 1 } }] }],
    });
    const { baseUrl } = await fake.start();
    const client = new OpenAI({ apiKey: 'k-123', baseURL: baseUrl, maxRetries: 0 });
    const collect = async () => {
      const stream = await client.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      });
      const chunks = [];
      for await (const chunk of stream) chunks.push(chunk);
      return chunks;
    };
    const text = await collect();
    expect(text.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('hello there');
    expect(text.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    const tools = await collect();
    expect(tools[0]?.choices[0]?.delta.tool_calls).toEqual([
      { index: 0, id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a":1}' } },
    ]);
    expect(tools.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
  });
});
