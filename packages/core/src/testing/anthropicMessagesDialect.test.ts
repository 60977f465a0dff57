import { FakeModelServer } from './FakeModelServer';
import { postJson, readSse } from './fakeModel.testkit';

const HEADERS = { 'x-api-key': 'sk-ant-fake', 'anthropic-version': '2023-06-01' };
const TOOLS = [
  { name: 'mcp__example__shipping_quote', description: 'Quote', input_schema: { type: 'object', properties: {} } },
];

describe('the Anthropic Messages dialect', () => {
  let fake: FakeModelServer;
  let origin: string;
  beforeEach(async () => {
    fake = new FakeModelServer()
      .when(
        { dialect: 'anthropic_messages', tool: 'shipping_quote', afterToolResult: false },
        {
          content: 'Let me check.',
          toolCalls: [{ name: 'mcp__example__shipping_quote', arguments: { weight_kg: 2 } }],
        },
      )
      .when({ afterToolResult: 'mcp__example__shipping_quote' }, (req) => ({
        content: `Quote: ${req.messages.at(-1)!.toolResults[0]!.text}`,
        usage: { promptTokens: 30, completionTokens: 7 },
      }));
    ({ origin } = await fake.start());
  });
  afterEach(() => fake.close());

  const firstTurn = [{ role: 'user', content: [{ type: 'text', text: 'Quote 2 kg' }] }];

  it('answers tool_use blocks, then reads the tool_result blocks sent back', async () => {
    const first = await postJson(
      `${origin}/v1/messages`,
      { model: 'claude-x', max_tokens: 100, system: 'Be brief.', messages: firstTurn, tools: TOOLS },
      HEADERS,
    );
    expect(first.status).toBe(200);
    const message = (await first.json()) as { content: { type: string; id?: string }[] };
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      stop_reason: 'tool_use',
      content: [
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'toolu_fake_1_1', name: 'mcp__example__shipping_quote', input: { weight_kg: 2 } },
      ],
      usage: { input_tokens: 10, output_tokens: 5 },
    });
    const second = await postJson(
      `${origin}/v1/messages`,
      {
        model: 'claude-x',
        max_tokens: 100,
        tools: TOOLS,
        messages: [
          ...firstTurn,
          { role: 'assistant', content: message.content },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_fake_1_1', content: [{ type: 'text', text: '{"amount":9}' }] },
            ],
          },
        ],
      },
      HEADERS,
    );
    expect(await second.json()).toMatchObject({
      content: [{ type: 'text', text: 'Quote: {"amount":9}' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 30, output_tokens: 7 },
    });
    expect(fake.modelRequests[0]).toMatchObject({
      dialect: 'anthropic_messages',
      model: 'claude-x',
      system: 'Be brief.',
      stream: false,
    });
    expect(fake.modelRequests[1]!.messages).toEqual([
      { role: 'user', text: 'Quote 2 kg', toolCalls: [], toolResults: [] },
      {
        role: 'assistant',
        text: 'Let me check.',
        toolCalls: [{ id: 'toolu_fake_1_1', name: 'mcp__example__shipping_quote', arguments: { weight_kg: 2 } }],
        toolResults: [],
      },
      {
        role: 'tool',
        text: '',
        toolCalls: [],
        toolResults: [
          { callId: 'toolu_fake_1_1', name: 'mcp__example__shipping_quote', text: '{"amount":9}', isError: false },
        ],
      },
    ]);
    expect(fake.answers).toEqual([
      { kind: 'rule', index: 0 },
      { kind: 'rule', index: 1 },
    ]);
  });

  it('streams message_start, content blocks with text and input_json deltas, message_delta and message_stop', async () => {
    const response = await postJson(
      `${origin}/v1/messages`,
      { model: 'claude-x', max_tokens: 100, stream: true, messages: firstTurn, tools: TOOLS },
      HEADERS,
    );
    const events = await readSse(response);
    expect(events.every((e) => e.event === (e.data as { type: string }).type)).toBe(true);
    const names = events.map((e) => e.event);
    const collapsed = names.filter((name, i) => name !== names[i - 1]);
    expect(collapsed).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    type Delta = { type: string; index: number; delta: { type: string; text?: string; partial_json?: string } };
    const deltas = events.filter((e) => e.event === 'content_block_delta').map((e) => e.data as Delta);
    expect(
      deltas
        .filter((d) => d.index === 0)
        .map((d) => d.delta.text)
        .join(''),
    ).toBe('Let me check.');
    expect(deltas.filter((d) => d.index === 0).length).toBeGreaterThan(1);
    expect(
      JSON.parse(
        deltas
          .filter((d) => d.index === 1)
          .map((d) => d.delta.partial_json)
          .join(''),
      ),
    ).toEqual({ weight_kg: 2 });
    expect(deltas.filter((d) => d.index === 1).every((d) => d.delta.type === 'input_json_delta')).toBe(true);
    expect(
      events.find((e) => e.event === 'content_block_start' && (e.data as { index: number }).index === 1)?.data,
    ).toEqual({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_fake_1_1', name: 'mcp__example__shipping_quote', input: {} },
    });
    expect(
      events.filter((e) => e.event === 'content_block_stop').map((e) => (e.data as { index: number }).index),
    ).toEqual([0, 1]);
    expect(events.at(-2)?.data).toMatchObject({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use' },
      usage: { output_tokens: 5 },
    });
    expect(events[0]?.data).toMatchObject({ message: { role: 'assistant', content: [], stop_reason: null } });
  });

  it('answers errors in the Anthropic shape, token counting and the model list', async () => {
    const unmatched = await postJson(
      `${origin}/v1/messages`,
      { model: 'claude-x', max_tokens: 5, messages: firstTurn },
      HEADERS,
    );
    expect(unmatched.status).toBe(400);
    const error = (await unmatched.json()) as { type: string; error: { type: string; message: string } };
    expect(error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(error.error.message).toContain('no scripted reply left');
    expect(error.error.message).toContain('anthropic_messages request #1 (model claude-x');
    expect(error.error.message).not.toContain('Quote 2 kg');

    fake.when({ lastUserText: 'busy' }, { status: 529, headers: { 'retry-after': '0' } });
    const busy = await postJson(
      `${origin}/v1/messages`,
      { model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'busy?' }] },
      HEADERS,
    );
    expect(busy.status).toBe(529);
    expect(busy.headers.get('retry-after')).toBe('0');
    expect(await busy.json()).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'scripted HTTP 529' },
    });

    const counted = await postJson(
      `${origin}/v1/messages/count_tokens`,
      { model: 'claude-x', messages: firstTurn },
      HEADERS,
    );
    expect(((await counted.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(0);
    const models = await fetch(`${origin}/v1/models`, { headers: HEADERS });
    expect(await models.json()).toMatchObject({ data: [{ type: 'model', id: 'fake-model' }], has_more: false });
    expect(fake.modelRequests).toHaveLength(2);
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/v1/messages',
      '/v1/messages',
      '/v1/messages/count_tokens',
      '/v1/models',
    ]);
  });
});
