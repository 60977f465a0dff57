import { FakeModelServer } from './FakeModelServer';
import { postJson, readSse } from './fakeModel.testkit';
import { callTarget } from './responsesDialect';
import { readResponsesRequest } from './responsesRequest';

const HEADERS = { authorization: 'Bearer sk-fake' };
// How Codex offers an MCP server's tools: one `namespace` tool per server.
const TOOLS = [
  { type: 'function', name: 'exec_command', description: 'Run', parameters: { type: 'object', properties: {} } },
  {
    type: 'namespace',
    name: 'mcp__example',
    description: 'Example server',
    tools: [{ type: 'function', name: 'shipping_quote', description: 'Quote', parameters: { type: 'object' } }],
  },
  { type: 'web_search', external_web_access: false },
];
const firstTurn = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Quote 2 kg' }] }];

type Item = { type: string; call_id?: string; name?: string; namespace?: string; arguments?: string };

describe('the OpenAI Responses dialect', () => {
  let fake: FakeModelServer;
  let baseUrl: string;
  let origin: string;
  beforeEach(async () => {
    fake = new FakeModelServer({ maxRounds: 2 })
      .when(
        { dialect: 'responses', tool: 'shipping_quote', afterToolResult: false, lastUserText: 'Quote' },
        { content: 'Checking.', toolCalls: [{ name: 'shipping_quote', arguments: { weight_kg: 2 } }] },
      )
      .when({ afterToolResult: 'mcp__example__shipping_quote' }, (req) => ({
        content: `Quote: ${req.messages.at(-1)!.toolResults[0]!.text}`,
        usage: { promptTokens: 30, completionTokens: 7 },
      }));
    ({ baseUrl, origin } = await fake.start());
  });
  afterEach(() => fake.close());

  it('answers a namespaced function call, then reads the function_call_output sent back', async () => {
    const first = await postJson(
      `${baseUrl}/responses`,
      { model: 'gpt-x', instructions: 'Be brief.', input: firstTurn, tools: TOOLS },
      HEADERS,
    );
    expect(first.status).toBe(200);
    const body = (await first.json()) as { output: Item[] };
    expect(body).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'gpt-x',
      output: [
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
        {
          type: 'function_call',
          call_id: 'call_1_1',
          namespace: 'mcp__example',
          name: 'shipping_quote',
          arguments: '{"weight_kg":2}',
        },
      ],
      usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15, output_tokens_details: { reasoning_tokens: 0 } },
    });
    const second = await postJson(
      `${baseUrl}/responses`,
      {
        model: 'gpt-x',
        tools: TOOLS,
        input: [
          ...firstTurn,
          ...body.output,
          { type: 'function_call_output', call_id: 'call_1_1', output: '{"amount":9}' },
        ],
      },
      HEADERS,
    );
    expect(await second.json()).toMatchObject({
      output: [{ type: 'message', content: [{ type: 'output_text', text: 'Quote: {"amount":9}' }] }],
      usage: { input_tokens: 30, output_tokens: 7, total_tokens: 37 },
    });
    expect(fake.modelRequests[0]).toMatchObject({ dialect: 'responses', system: 'Be brief.', stream: false });
    expect(fake.modelRequests[1]!.messages).toEqual([
      { role: 'user', text: 'Quote 2 kg', toolCalls: [], toolResults: [] },
      {
        role: 'assistant',
        text: 'Checking.',
        toolCalls: [{ id: 'call_1_1', name: 'mcp__example__shipping_quote', arguments: { weight_kg: 2 } }],
        toolResults: [],
      },
      {
        role: 'tool',
        text: '',
        toolCalls: [],
        toolResults: [
          { callId: 'call_1_1', name: 'mcp__example__shipping_quote', text: '{"amount":9}', isError: false },
        ],
      },
    ]);
    expect(fake.answers).toEqual([
      { kind: 'rule', index: 0 },
      { kind: 'rule', index: 1 },
    ]);
  });

  it('streams the events Codex reads, in order, with text and arguments that accumulate to the item', async () => {
    const response = await postJson(`${origin}/responses`, {
      model: 'gpt-x',
      stream: true,
      input: firstTurn,
      tools: TOOLS,
    });
    const events = await readSse(response);
    expect(events.every((e) => e.event === (e.data as { type: string }).type)).toBe(true);
    expect(events.map((e) => (e.data as { sequence_number: number }).sequence_number)).toEqual(events.map((_, i) => i));
    const names = events.map((e) => e.event);
    expect(names.filter((name, i) => name !== names[i - 1])).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    type Delta = { delta: string; item_id: string; output_index: number };
    const data = (name: string) => events.filter((e) => e.event === name).map((e) => e.data as Delta);
    expect(data('response.output_text.delta').length).toBeGreaterThan(1);
    expect(
      data('response.output_text.delta')
        .map((d) => d.delta)
        .join(''),
    ).toBe('Checking.');
    const args = data('response.function_call_arguments.delta');
    expect(args.map((d) => d.delta).join('')).toBe('{"weight_kg":2}');
    expect(args.every((d) => d.item_id === 'fc_fake_1_1' && d.output_index === 1)).toBe(true);
    expect(data('response.output_item.added')[1]).toMatchObject({
      item: { type: 'function_call', status: 'in_progress', arguments: '', call_id: 'call_1_1' },
    });
    expect(data('response.output_item.done')[1]).toMatchObject({
      output_index: 1,
      item: { type: 'function_call', namespace: 'mcp__example', name: 'shipping_quote', arguments: '{"weight_kg":2}' },
    });
    expect(events[0]?.data).toMatchObject({ response: { status: 'in_progress', output: [], usage: null } });
    expect(events.at(-1)?.data).toMatchObject({
      response: {
        status: 'completed',
        output: [{ type: 'message' }, { type: 'function_call' }],
        usage: { total_tokens: 15 },
      },
    });
  });

  it('ends a cut-off answer with response.incomplete and sends a refusal as a refusal part', async () => {
    fake.when({ lastUserText: 'long' }, { content: 'partial', finishReason: 'length' });
    fake.when({ lastUserText: 'forbidden' }, { refusal: 'I cannot help with that.' });
    const long = await readSse(await postJson(`${baseUrl}/responses`, { model: 'm', stream: true, input: 'long' }));
    expect(long.at(-1)?.data).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
    const refused = await postJson(`${baseUrl}/responses`, { model: 'm', input: 'forbidden' });
    expect(await refused.json()).toMatchObject({
      status: 'completed',
      output: [{ type: 'message', content: [{ type: 'refusal', refusal: 'I cannot help with that.' }] }],
    });
    const streamed = await readSse(
      await postJson(`${baseUrl}/responses`, { model: 'm', stream: true, input: 'forbidden' }),
    );
    const deltas = streamed
      .filter((e) => e.event === 'response.refusal.delta')
      .map((e) => (e.data as { delta: string }).delta);
    expect(deltas.join('')).toBe('I cannot help with that.');
  });

  it('answers errors in the OpenAI error shape, and refuses a looping conversation at maxRounds', async () => {
    const unmatched = await postJson(`${baseUrl}/responses`, { model: 'gpt-x', input: 'hello there' });
    expect(unmatched.status).toBe(400);
    const error = (await unmatched.json()) as { error: { message: string; type: string; code: unknown } };
    expect(error).toMatchObject({ error: { type: 'server_error', param: null, code: null } });
    expect(error.error.message).toContain('responses request #1 (model gpt-x');
    expect(error.error.message).not.toContain('hello there');

    const round = (n: number) => [
      { type: 'function_call', call_id: `c${n}`, namespace: 'mcp__example', name: 'shipping_quote', arguments: '{}' },
      { type: 'function_call_output', call_id: `c${n}`, output: 'ok' },
    ];
    const looping = await postJson(`${baseUrl}/responses`, {
      model: 'gpt-x',
      tools: TOOLS,
      input: [...firstTurn, ...round(1), ...round(2), ...round(3)],
    });
    expect(looping.status).toBe(400);
    expect(((await looping.json()) as { error: { type: string; message: string } }).error).toMatchObject({
      type: 'fake_model_limit',
      message: expect.stringContaining(
        'maxRounds limit of 2 reached (this conversation already holds 3 tool-call rounds)',
      ),
    });
    expect(fake.limitViolations).toMatchObject([{ limit: 'maxRounds', observed: 3 }]);
  });
});

describe('callTarget', () => {
  const view = (tools: unknown[]) => readResponsesRequest({ input: 'x', tools: tools as never });

  it('sends a namespaced function under its namespace, by full or own name, and anything else as scripted', () => {
    const request = view(TOOLS);
    expect(callTarget(request, 'mcp__example__shipping_quote')).toEqual({
      kind: 'function',
      namespace: 'mcp__example',
      name: 'shipping_quote',
    });
    expect(callTarget(request, 'shipping_quote')).toEqual({
      kind: 'function',
      namespace: 'mcp__example',
      name: 'shipping_quote',
    });
    expect(callTarget(request, 'exec_command')).toEqual({ kind: 'function', name: 'exec_command' });
    expect(callTarget(request, 'not_offered')).toEqual({ kind: 'function', name: 'not_offered' });
  });

  it('keeps an own name that two namespaces offer, or that a plain tool also has, as scripted', () => {
    const other = { ...TOOLS[1], name: 'mcp__other' };
    expect(callTarget(view([TOOLS[1], other]), 'shipping_quote')).toEqual({ kind: 'function', name: 'shipping_quote' });
    const plain = { type: 'function', name: 'shipping_quote', description: '', parameters: {} };
    expect(callTarget(view([TOOLS[1], plain]), 'shipping_quote')).toEqual({ kind: 'function', name: 'shipping_quote' });
  });
});
