import { FakeModelServer } from './FakeModelServer';
import { offeredTool } from './fakeModelRequest';
import { postJson, readSse } from './fakeModel.testkit';

const HEADERS = { 'x-goog-api-key': 'fake-gemini-key' };
const TOOLS = [
  {
    functionDeclarations: [
      { name: 'mcp_example_shipping_quote', description: 'Quote', parametersJsonSchema: { type: 'object' } },
      { name: 'read_file', description: 'Read', parameters: { type: 'OBJECT' } },
    ],
  },
];
const firstTurn = [{ role: 'user', parts: [{ text: 'Quote 2 kg' }] }];

describe('the Gemini dialect', () => {
  let fake: FakeModelServer;
  let origin: string;
  beforeEach(async () => {
    fake = new FakeModelServer()
      .when({ dialect: 'gemini', tool: 'shipping_quote', afterToolResult: false }, (req) => ({
        toolCalls: [{ name: offeredTool(req, 'shipping_quote')!, arguments: '{"weight_kg":2,"zone":"local"}' }],
      }))
      .when({ afterToolResult: 'mcp_example_shipping_quote' }, (req) => ({
        content: `Quote: ${req.messages.at(-1)!.toolResults[0]!.text}`,
      }));
    ({ origin } = await fake.start());
  });
  afterEach(() => fake.close());

  const generate = (model: string, body: unknown, method = 'generateContent', query = '') =>
    postJson(`${origin}/v1beta/models/${model}:${method}${query}`, body, HEADERS);

  it('answers functionCall parts, then reads the functionResponse parts sent back', async () => {
    const first = await generate('gemini-2.5-flash', {
      contents: firstTurn,
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      tools: TOOLS,
    });
    expect(first.status).toBe(200);
    const body = (await first.json()) as { candidates: { content: { parts: unknown[] } }[] };
    expect(body).toMatchObject({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'mcp_example_shipping_quote', args: { weight_kg: 2, zone: 'local' } } }],
          },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: 'gemini-2.5-flash',
    });
    expect(body.candidates[0]!.content.parts[0]).not.toHaveProperty('functionCall.id');
    const second = await generate('gemini-2.5-flash', {
      contents: [
        ...firstTurn,
        { role: 'model', parts: body.candidates[0]!.content.parts },
        {
          role: 'user',
          parts: [{ functionResponse: { name: 'mcp_example_shipping_quote', response: { output: '{"amount":9}' } } }],
        },
      ],
      tools: TOOLS,
    });
    expect(await second.json()).toMatchObject({
      candidates: [{ content: { parts: [{ text: 'Quote: {"amount":9}' }] } }],
    });
    expect(fake.modelRequests[0]).toMatchObject({
      dialect: 'gemini',
      model: 'gemini-2.5-flash',
      system: 'Be brief.',
      stream: false,
      tools: [
        { name: 'mcp_example_shipping_quote', description: 'Quote', parameters: { type: 'object' } },
        { name: 'read_file', description: 'Read', parameters: { type: 'OBJECT' } },
      ],
    });
    expect(fake.modelRequests[1]!.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        text: '',
        toolCalls: [{ id: null, name: 'mcp_example_shipping_quote', arguments: { weight_kg: 2, zone: 'local' } }],
        toolResults: [],
      },
      {
        role: 'tool',
        text: '',
        toolCalls: [],
        toolResults: [{ callId: null, name: 'mcp_example_shipping_quote', text: '{"amount":9}', isError: false }],
      },
    ]);
  });

  it('streams with alt=sse: text in several chunks, the last with finishReason and usage', async () => {
    fake.when(
      { lastUserText: 'hello' },
      {
        content: 'Hello from the fake model',
        toolCalls: [{ id: 'fc_1', name: 'read_file', arguments: { path: 'a' } }],
      },
    );
    const response = await generate(
      'gemini-x',
      { contents: [{ role: 'user', parts: [{ text: 'hello' }] }] },
      'streamGenerateContent',
      '?alt=sse',
    );
    type Chunk = {
      candidates: { content: { parts: { text?: string; functionCall?: unknown }[] }; finishReason?: string }[];
      usageMetadata: { candidatesTokenCount?: number };
    };
    const chunks = (await readSse(response)).map((e) => e.data as Chunk);
    expect(chunks.length).toBeGreaterThan(2);
    const parts = chunks.flatMap((c) => c.candidates[0]!.content.parts);
    expect(parts.map((p) => p.text ?? '').join('')).toBe('Hello from the fake model');
    expect(parts.filter((p) => p.functionCall)).toEqual([
      { functionCall: { id: 'fc_1', name: 'read_file', args: { path: 'a' } } },
    ]);
    expect(chunks.slice(0, -1).every((c) => c.candidates[0]!.finishReason === undefined)).toBe(true);
    expect(chunks.at(-1)).toMatchObject({
      candidates: [{ finishReason: 'STOP' }],
      usageMetadata: { candidatesTokenCount: 5 },
    });
    expect(fake.modelRequests[0]).toMatchObject({ model: 'gemini-x', stream: true });

    const array = await generate(
      'gemini-x',
      { contents: [{ role: 'user', parts: [{ text: 'hello' }] }] },
      'streamGenerateContent',
    );
    expect(array.headers.get('content-type')).toBe('application/json');
    const joined = ((await array.json()) as Chunk[])
      .flatMap((c) => c.candidates[0]!.content.parts)
      .map((p) => p.text ?? '')
      .join('');
    expect(joined).toBe('Hello from the fake model');
  });

  it('answers errors in the Gemini shape, token counting and the model list', async () => {
    fake.when({ lastUserText: /^fail/ }, { status: 503 });
    const failed = await generate('gemini-x', { contents: [{ role: 'user', parts: [{ text: 'fail now' }] }] });
    expect(failed.status).toBe(503);
    expect(await failed.json()).toEqual({ error: { code: 503, message: 'scripted HTTP 503', status: 'UNAVAILABLE' } });
    const unmatched = await generate('gemini-x', { contents: firstTurn });
    expect(unmatched.status).toBe(400);
    expect(await unmatched.json()).toMatchObject({
      error: { code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('gemini request #2') },
    });

    const counted = await postJson(`${origin}/v1beta/models/gemini-x:countTokens`, { contents: firstTurn }, HEADERS);
    expect(((await counted.json()) as { totalTokens: number }).totalTokens).toBeGreaterThan(0);
    expect(await (await fetch(`${origin}/v1beta/models`, { headers: HEADERS })).json()).toMatchObject({
      models: [{ name: 'models/fake-model', supportedGenerationMethods: expect.arrayContaining(['generateContent']) }],
    });
    expect(fake.answers).toEqual([{ kind: 'rule', index: 2 }, { kind: 'unscripted' }]);
  });
});
