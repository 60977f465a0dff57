import OpenAI from 'openai';
import { FakeModelServer } from './FakeModelServer';
import { lastUserText, offeredTool } from './fakeModelRequest';

const QUOTE_TOOL = {
  type: 'function' as const,
  function: { name: 'example__shipping_quote', description: 'Quote', parameters: { type: 'object' } },
};

describe('content-matched rules (over Chat Completions with the openai package)', () => {
  let fake: FakeModelServer;
  let client: OpenAI;
  beforeEach(async () => {
    fake = new FakeModelServer();
    const { baseUrl } = await fake.start();
    client = new OpenAI({ apiKey: 'k-123', baseURL: baseUrl, maxRetries: 0 });
  });
  afterEach(() => fake.close());

  const ask = (text: string, extra: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming> = {}) =>
    client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: text }], ...extra });

  it('answers by content, whatever the order; the first matching rule wins; times bounds a rule', async () => {
    fake
      .when({ lastUserText: /2 \+ 3/ }, { content: 'five' })
      .when({ lastUserText: 'weather' }, { content: 'sunny' }, { times: 1 })
      .when({ lastUserText: 'weather' }, { content: 'rainy' })
      .when({ model: /^big-/ }, { content: 'big model' })
      .when({}, { content: 'anything else' });
    const texts = [];
    for (const [question, model] of [
      ['weather?', 'm'],
      ['what is 2 + 3?', 'm'],
      ['weather again?', 'm'],
      ['hi', 'big-1'],
      ['hi', 'm'],
    ]) {
      texts.push((await ask(question!, { model: model! })).choices[0]!.message.content);
    }
    expect(texts).toEqual(['sunny', 'five', 'rainy', 'big model', 'anything else']);
    expect(fake.answers.map((a) => (a.kind === 'rule' ? a.index : a.kind))).toEqual([1, 0, 2, 3, 4]);
    expect(fake.ruleUsage.map((r) => r.used)).toEqual([1, 1, 1, 1, 1]);
    expect(fake.ruleUsage[1]!.remaining).toBe(0);
  });

  it('tells the first request from the one after a tool result, and by tool offered; rules before the queue', async () => {
    fake
      .enqueue({ content: 'from the queue' })
      .when({ tool: 'shipping_quote', afterToolResult: false }, (req) => ({
        toolCalls: [
          { id: 'call_q', name: offeredTool(req, 'shipping_quote')!, arguments: { weight_kg: 2, zone: 'local' } },
        ],
      }))
      .when({ afterToolResult: 'example__shipping_quote' }, (req) => ({
        content: `quoted ${req.messages.at(-1)!.toolResults[0]!.text} for "${lastUserText(req)}"`,
      }));
    const first = await ask('Quote 2 kg', { tools: [QUOTE_TOOL] });
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(call).toMatchObject({
      id: 'call_q',
      function: { name: 'example__shipping_quote', arguments: '{"weight_kg":2,"zone":"local"}' },
    });
    const second = await client.chat.completions.create({
      model: 'm',
      tools: [QUOTE_TOOL],
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Quote 2 kg' },
        first.choices[0]!.message,
        { role: 'tool', tool_call_id: 'call_q', content: '{"amount":9}' },
      ],
    });
    expect(second.choices[0]!.message.content).toBe('quoted {"amount":9} for "Quote 2 kg"');
    // No tool offered and no tool result: no rule matches, the queue answers.
    expect((await ask('Quote 2 kg')).choices[0]!.message.content).toBe('from the queue');
    expect(fake.modelRequests[1]).toMatchObject({
      dialect: 'chat_completions',
      model: 'm',
      system: 'Be brief.',
      stream: false,
      tools: [{ name: 'example__shipping_quote', description: 'Quote', parameters: { type: 'object' } }],
      messages: [
        { role: 'user', text: 'Quote 2 kg', toolCalls: [], toolResults: [] },
        {
          role: 'assistant',
          text: '',
          toolCalls: [{ id: 'call_q', name: 'example__shipping_quote', arguments: { weight_kg: 2, zone: 'local' } }],
          toolResults: [],
        },
        {
          role: 'tool',
          text: '',
          toolCalls: [],
          toolResults: [{ callId: 'call_q', name: 'example__shipping_quote', text: '{"amount":9}', isError: false }],
        },
      ],
    });
    expect(fake.answers.map((a) => a.kind)).toEqual(['rule', 'rule', 'queue']);
  });

  it('parallel tool calls: the results of one round are one trailing message; afterToolResult names either tool', async () => {
    fake
      .when(
        { afterToolResult: false },
        {
          toolCalls: [
            { id: 'a', name: 'add', arguments: { a: 1, b: 2 } },
            { id: 'b', name: 'mul', arguments: { a: 2, b: 3 } },
          ],
        },
      )
      .when({ afterToolResult: 'mul' }, (req) => ({
        content: req.messages
          .at(-1)!
          .toolResults.map((r) => `${r.name}=${r.text}`)
          .join(' '),
      }));
    const first = (await ask('compute')).choices[0]!.message;
    const second = await client.chat.completions.create({
      model: 'm',
      messages: [
        { role: 'user', content: 'compute' },
        first,
        { role: 'tool', tool_call_id: 'a', content: '3' },
        { role: 'tool', tool_call_id: 'b', content: '6' },
      ],
    });
    expect(second.choices[0]!.message.content).toBe('add=3 mul=6');
    const request = fake.modelRequests[1]!;
    expect(request.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(lastUserText(request)).toBe('compute');
  });

  it('matches tool names with agent prefixes, by dialect, and refuses a rule with times < 1', () => {
    const request = { tools: [{ name: 'mcp__example__shipping_quote', description: '', parameters: null }] };
    expect(offeredTool(request, 'shipping_quote')).toBe('mcp__example__shipping_quote');
    expect(offeredTool(request, 'quote')).toBe('mcp__example__shipping_quote');
    expect(offeredTool(request, 'ping_quote')).toBeNull();
    expect(offeredTool(request, /^mcp__/g)).toBe('mcp__example__shipping_quote');
    expect(offeredTool(request, /^mcp__/g)).toBe('mcp__example__shipping_quote');
    expect(() => fake.when({}, {}, { times: 0 })).toThrow(/times must be 1 or more/);
  });

  it('a rule for another dialect does not answer, and an unscripted Chat request gets a 500 naming the fix', async () => {
    fake.when({ dialect: 'gemini' }, { content: 'gemini only' });
    await expect(ask('hi')).rejects.toMatchObject({ status: 500, message: expect.stringContaining('Add fake.when') });
    expect(fake.answers).toEqual([{ kind: 'unscripted' }]);
  });
});
