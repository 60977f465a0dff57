import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createExampleServer, normalizeCustomerName, shippingAmount, TESTING_GUIDE_TEXT } from './exampleServer';
import { connectInMemory, firstText, structured } from './servers.testkit';

describe('example server (in-process)', () => {
  let client: Client;

  beforeEach(async () => {
    client = await connectInMemory(createExampleServer());
  });
  afterEach(async () => {
    await client.close();
  });

  test('reports its identity, instructions and capabilities', () => {
    expect(client.getServerVersion()).toEqual({ name: 'mcp-pal-example-server', version: '1.0.0' });
    expect(client.getInstructions()).toBe('Deterministic server for MCP Pal SDK examples');
    const capabilities = client.getServerCapabilities();
    expect(capabilities).toMatchObject({
      tools: {},
      resources: { subscribe: true },
      prompts: {},
      completions: {},
      logging: {},
    });
  });

  test('lists eight tools on the first page and the catalog marker on page-2', async () => {
    const first = await client.listTools();
    expect(first.tools.map((t) => t.name)).toEqual([
      'normalize_customer',
      'create_order',
      'get_order',
      'shipping_quote',
      'batch_total',
      'always_fails',
      'process_id',
      'session_observations',
    ]);
    expect(first.nextCursor).toBe('page-2');
    const second = await client.listTools({ cursor: 'page-2' });
    expect(second.tools.map((t) => t.name)).toEqual(['catalog_marker']);
    expect(second.nextCursor).toBeUndefined();
  });

  test('advertises the upstream shipping_quote schemas', async () => {
    const { tools } = await client.listTools();
    const quote = tools.find((t) => t.name === 'shipping_quote')!;
    expect(quote.description).toBe('Calculate a deterministic shipping quote');
    expect(quote.inputSchema).toEqual({
      type: 'object',
      properties: {
        weight_kg: { type: 'number', exclusiveMinimum: 0 },
        zone: { type: 'string', enum: ['local', 'regional', 'international'] },
      },
      required: ['weight_kg', 'zone'],
      additionalProperties: false,
    });
    expect(quote.outputSchema).toEqual({
      type: 'object',
      properties: { amount: { type: 'number' }, currency: { type: 'string' } },
      required: ['amount', 'currency'],
      additionalProperties: false,
    });
    const alwaysFails = tools.find((t) => t.name === 'always_fails')!;
    expect(alwaysFails.inputSchema).toEqual({
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
    });
    expect(alwaysFails.outputSchema).toBeUndefined();
  });

  test.each([
    [2, 'local', 9],
    [1, 'local', 7],
    [2, 'regional', 12],
    [3, 'regional', 15.5],
    [0.5, 'international', 8.5],
  ])('quotes %p kg %s as %p USD, with the JSON text of the structured content', async (weight_kg, zone, amount) => {
    const result = await client.callTool({ name: 'shipping_quote', arguments: { weight_kg, zone } });
    expect(result.isError).toBeFalsy();
    expect(structured(result)).toEqual({ amount, currency: 'USD' });
    expect(firstText(result)).toBe(JSON.stringify({ amount, currency: 'USD' }));
  });

  test('creates, normalizes and retrieves orders', async () => {
    const normalized = await client.callTool({ name: 'normalize_customer', arguments: { name: 'Ada Lovelace' } });
    expect(structured(normalized)).toEqual({ customer_id: 'ada-lovelace' });
    const created = await client.callTool({
      name: 'create_order',
      arguments: { customer_id: 'ada-lovelace', item: 'analytical engine', quantity: 2 },
    });
    expect(structured(created)).toEqual({ order_id: 'order-001' });
    const second = await client.callTool({
      name: 'create_order',
      arguments: { customer_id: 'grace', item: 'compiler', quantity: 1 },
    });
    expect(structured(second)).toEqual({ order_id: 'order-002' });
    const fetched = await client.callTool({ name: 'get_order', arguments: { order_id: 'order-001' } });
    expect(structured(fetched)).toEqual({
      order_id: 'order-001',
      customer_id: 'ada-lovelace',
      item: 'analytical engine',
      quantity: 2,
    });
  });

  test('keeps state per server instance', async () => {
    await client.callTool({ name: 'create_order', arguments: { customer_id: 'a', item: 'b', quantity: 1 } });
    const other = await connectInMemory(createExampleServer());
    const missing = await other.callTool({ name: 'get_order', arguments: { order_id: 'order-001' } });
    expect(missing.isError).toBe(true);
    expect(firstText(missing)).toBe('order not found');
    await other.close();
  });

  test('returns tool errors for failing, unknown, page-2-only and invalid calls', async () => {
    const fails = await client.callTool({ name: 'always_fails' });
    expect(fails).toEqual({ content: [{ type: 'text', text: 'expected example failure' }], isError: true });
    const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} });
    expect(firstText(unknown)).toBe('unknown tool: no_such_tool');
    const marker = await client.callTool({ name: 'catalog_marker', arguments: {} });
    expect(marker.isError).toBe(true);
    expect(firstText(marker)).toBe('unknown tool: catalog_marker');
    const invalid = await client.callTool({ name: 'shipping_quote', arguments: { weight_kg: -1, zone: 'local' } });
    expect(invalid.isError).toBe(true);
    expect(firstText(invalid)).toMatch(/^invalid arguments for shipping_quote: weight_kg:/);
    const extra = await client.callTool({ name: 'process_id', arguments: { surprise: true } });
    expect(extra.isError).toBe(true);
  });

  test('sums values and reports its pid', async () => {
    expect(structured(await client.callTool({ name: 'batch_total', arguments: { values: [1.5, 2, 3.25] } }))).toEqual({
      total: 6.75,
    });
    expect(structured(await client.callTool({ name: 'process_id', arguments: {} }))).toEqual({ pid: process.pid });
  });

  test('exposes the testing guide resource and the order template', async () => {
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      {
        name: 'testing-guide',
        uri: 'memory://testing-guide',
        description: 'A short guide exposed by the example server',
        mimeType: 'text/markdown',
      },
    ]);
    const read = await client.readResource({ uri: 'memory://testing-guide' });
    expect(read.contents).toEqual([
      { uri: 'memory://testing-guide', mimeType: 'text/markdown', text: TESTING_GUIDE_TEXT },
    ]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      {
        name: 'order',
        uriTemplate: 'memory://orders/{order_id}',
        description: 'An order stored in the current server session',
        mimeType: 'application/json',
      },
    ]);
    await client.callTool({ name: 'create_order', arguments: { customer_id: 'ada', item: 'engine', quantity: 3 } });
    const order = await client.readResource({ uri: 'memory://orders/order-001' });
    expect(JSON.parse(String((order.contents[0] as { text: string }).text))).toEqual({
      order_id: 'order-001',
      customer_id: 'ada',
      item: 'engine',
      quantity: 3,
    });
    await expect(client.readResource({ uri: 'memory://orders/order-404' })).rejects.toThrow(/order not found/);
  });

  test('renders the review_order prompt and completes its argument', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => [p.name, p.description, p.arguments])).toEqual([
      ['review_order', 'Ask an assistant to review an order', [{ name: 'order_id', required: true }]],
    ]);
    const prompt = await client.getPrompt({ name: 'review_order', arguments: { order_id: 'order-042' } });
    expect(prompt.description).toBe('Review a stored order');
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Review order order-042 for correctness.' } },
    ]);
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'review_order' },
      argument: { name: 'order_id', value: 'order-' },
    });
    expect(completion.completion).toEqual({ values: ['order-001', 'order-002'], total: 2, hasMore: false });
    const templateCompletion = await client.complete({
      ref: { type: 'ref/resource', uri: 'memory://orders/{order_id}' },
      argument: { name: 'order_id', value: '' },
    });
    expect(templateCompletion.completion.values).toEqual(['order-001', 'order-002']);
  });

  test('observes subscriptions, logging level, progress and roots notifications', async () => {
    const initial = structured(await client.callTool({ name: 'session_observations', arguments: {} }));
    expect(initial).toEqual({ logging_level: null, progress_notifications: 0, roots_changed: 0, subscriptions: [] });
    await client.subscribeResource({ uri: 'memory://testing-guide' });
    await client.subscribeResource({ uri: 'memory://orders/order-001' });
    await client.setLoggingLevel('info');
    await client.notification({ method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } });
    await client.notification({ method: 'notifications/progress', params: { progressToken: 'p', progress: 2 } });
    await client.sendRootsListChanged();
    await client.ping();
    const observed = structured(await client.callTool({ name: 'session_observations', arguments: {} }));
    expect(observed).toEqual({
      logging_level: 'info',
      progress_notifications: 2,
      roots_changed: 1,
      subscriptions: ['memory://orders/order-001', 'memory://testing-guide'],
    });
    await client.unsubscribeResource({ uri: 'memory://testing-guide' });
    await client.unsubscribeResource({ uri: 'memory://orders/order-001' });
    expect(structured(await client.callTool({ name: 'session_observations', arguments: {} }))?.subscriptions).toEqual(
      [],
    );
  });
});

describe('example server helpers', () => {
  test.each([
    ['Ada Lovelace', 'ada-lovelace'],
    ['  Grace   HOPPER ', 'grace-hopper'],
    ['--Émile__Zola!!', 'mile-zola'],
  ])('normalizes %p to %p', (name, id) => {
    expect(normalizeCustomerName(name)).toBe(id);
  });

  test('rounds shipping amounts to cents', () => {
    expect(shippingAmount(0.333, 'regional')).toBe(6.17);
    expect(shippingAmount(2, 'international')).toBe(19);
  });
});
