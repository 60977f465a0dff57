// The upstream example scenarios of reference/upstream-core.md §6 that belong to issue 2 (quick
// start, async usage, tracing and lifecycle, resources and prompts, errors and contracts, chained
// workflow, typed trace view), ported to the TypeScript API and run against the example server
// over stdio, Streamable HTTP and in-process.
import { ModelValidationError } from '../errors';
import { CallTool } from '../kit/DirectSpec';
import { requests, waitForExit, useKitPerTest } from '@sf-m3/test-utils/client';
import { exampleServerRows, useExampleHttpServer } from './exampleTransports.testkit';

const httpUrl = useExampleHttpServer();

const kit = useKitPerTest({ suiteName: 'upstream-scenarios' });

describe.each(exampleServerRows('example-mcp', httpUrl))('upstream scenarios over %s', (transport, server) => {
  test('quick start: discover the tools (two pages) and call shipping_quote', async () => {
    const client = await kit().direct(server()).connect();
    const tools = await client.listAllTools();
    expect(tools.length).toBeGreaterThanOrEqual(8);
    const quote = tools.find((t) => t.name === 'shipping_quote')!;
    expect(quote.description).toBe('Calculate a deterministic shipping quote');
    expect(quote.inputSchema).toMatchObject({
      type: 'object',
      properties: {
        weight_kg: { type: 'number', exclusiveMinimum: 0 },
        zone: { type: 'string', enum: ['local', 'regional', 'international'] },
      },
      required: ['weight_kg', 'zone'],
    });
    const result = await client.callTool('shipping_quote', { weight_kg: 2, zone: 'local' });
    await client.close();
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({ amount: 9, currency: 'USD' });
  });

  test('async usage: several calls in flight at once on one client', async () => {
    const client = await kit().direct(server()).connect();
    const [regional, local] = await Promise.all([
      client.callTool('shipping_quote', { weight_kg: 3, zone: 'regional' }),
      client.callTool('shipping_quote', { weight_kg: 1, zone: 'local' }),
    ]);
    await client.close();
    expect(regional).toMatchObject({ isError: false, structuredContent: { amount: 15.5, currency: 'USD' } });
    expect(local.structuredContent).toEqual({ amount: 7, currency: 'USD' });
    expect(client.result!.traceView.toolCalls).toHaveLength(2);
  });

  test('tracing: a finalized trace with numbered events ending in execution.finished', async () => {
    const client = await kit().direct(server()).connect();
    await client.callTool('shipping_quote', { weight_kg: 2, zone: 'local' });
    await client.close();
    const events = client.finalTrace!.events;
    expect(events.map((e) => e.kind)).toEqual(
      expect.arrayContaining(['tool.call_requested', 'mcp.request', 'mcp.response']),
    );
    expect(events.at(-1)!.kind).toBe('execution.finished');
    expect(events[0]!.kind).toBe('execution.created');
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i));
  });

  test('lifecycle: after close every call says closed, and a stdio server process is gone', async () => {
    const client = await kit().direct(server()).connect();
    const { pid } = (await client.callTool('process_id')).structuredContent as { pid: number };
    await client.close();
    await expect(client.listAllTools()).rejects.toThrow(/closed/);
    if (transport === 'stdio') expect(await waitForExit(pid)).toBe(true);
  });

  test('isolation: each connection has its own server state', async () => {
    const first = await kit().direct(server()).connect();
    const created = await first.callTool('create_order', { customer_id: 'ada', item: 'engine', quantity: 1 });
    expect(created.structuredContent).toEqual({ order_id: 'order-001' });
    const second = await kit().direct(server()).connect();
    const missing = await second.callTool('get_order', { order_id: 'order-001' });
    expect(missing.isError).toBe(true);
    expect(missing.content[0]).toMatchObject({ type: 'text', text: 'order not found' });
    await Promise.all([first.close(), second.close()]);
  });

  test('resources and prompts: read the guide and render review_order', async () => {
    const client = await kit().direct(server()).connect();
    expect((await client.listAllResources()).map((r) => r.uri)).toEqual(['memory://testing-guide']);
    expect((await client.readResource('memory://testing-guide')).text).toContain('Discover capabilities');
    expect((await client.listAllPrompts()).map((p) => p.name)).toEqual(['review_order']);
    const prompt = await client.getPrompt('review_order', { order_id: 'order-042' });
    expect(prompt.description).toBe('Review a stored order');
    expect(prompt.messages[0]!.content).toMatchObject({ text: 'Review order order-042 for correctness.' });
    await client.close();
  });

  test('errors and contracts: a tool error, the shipping contract, and schema-checked arguments', async () => {
    const client = await kit().direct(server(), { validateSchemas: true }).connect();
    const failed = await client.callTool('always_fails');
    expect(failed.isError).toBe(true);
    expect(failed.content[0]).toMatchObject({ text: 'expected example failure' });
    for (const [weight_kg, zone, amount] of [
      [1, 'local', 7],
      [2, 'regional', 12],
      [0.5, 'international', 8.5],
    ] as const) {
      const quote = await client.callTool('shipping_quote', { weight_kg, zone });
      expect(quote.structuredContent).toEqual({ amount, currency: 'USD' });
    }
    const callsBefore = requests(client.trace.events, 'tools/call').length;
    const invalid = client.callTool('shipping_quote', { weight_kg: -1, zone: 'local' });
    await expect(invalid).rejects.toThrow(ModelValidationError);
    await expect(invalid).rejects.toThrow('tool JSON Schema validation failed');
    expect(requests(client.trace.events, 'tools/call')).toHaveLength(callsBefore);
    await client.close();
  });

  test('chained workflow: normalize a customer, create an order and read it back', async () => {
    const client = await kit().direct(server()).connect();
    const { customer_id } = (await client.callTool('normalize_customer', { name: 'Ada Lovelace' }))
      .structuredContent as { customer_id: string };
    const { order_id } = (
      await client.callTool('create_order', { customer_id, item: 'analytical engine', quantity: 2 })
    ).structuredContent as { order_id: string };
    const order = await client.callTool('get_order', { order_id });
    await client.close();
    expect(order.isError).toBe(false);
    expect(order.structuredContent).toEqual({
      order_id: 'order-001',
      customer_id: 'ada-lovelace',
      item: 'analytical engine',
      quantity: 2,
    });
  });

  test('typed trace view: runtime, initialization, wire evidence, timing, filters', async () => {
    const result = await kit().run(
      new CallTool({ server: server(), tool: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } }),
    );
    expect(result.snapshot.outcome).toBe('completed');
    const view = result.traceView;
    expect(['complete', 'partial']).toContain(view.completeness);
    expect(view.runtime.kind).toBe('direct');
    expect(view.toolCalls).toHaveLength(1);
    const call = view.toolCalls[0]!;
    expect(call.tool).toEqual({ state: 'observed', value: 'shipping_quote' });
    expect(call.wire.state).toBe('observed');
    expect(call.server).toBe('example-mcp');
    expect(view.summary.timing.durationMs).toBeGreaterThanOrEqual(0);
    expect(view.forServer('example-mcp').toolCalls).toEqual(view.toolCalls);
    expect(view.forTurn('unknown-turn').timeline).toHaveLength(0);
    expect(view.between(0, view.summary.timing.durationMs! + 1).timeline.length).toBeGreaterThan(0);
    expect(view.messages).toEqual(view.timeline.filter((entry) => entry.kind === 'message'));
  });
});
