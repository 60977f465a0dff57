// Quick start: connect to a server, discover its tools, call one, assert on the result and the trace.
import { exampleServer } from './servers';

describe.m3('quick start', () => {
  test('discover and call a tool', async () => {
    const client = await m3Kit.direct(exampleServer).connect();

    const tools = await client.listAllTools();
    const quote = tools.find((tool) => tool.name === 'shipping_quote');
    expect(quote?.description).toBe('Calculate a deterministic shipping quote');
    expect(quote?.inputSchema.required).toEqual(['weight_kg', 'zone']);

    const result = await client.callTool('shipping_quote', { weight_kg: 2, zone: 'local' });
    expect(result).not.toBeToolError();
    expect(result).toHaveStructuredContent({ amount: 9, currency: 'USD' });

    await client.close();
    expect(client.result).toBeCompleted();
    expect(client.result).toHaveToolCall('shipping_quote', { arguments: { weight_kg: 2, zone: 'local' }, count: 1 });
  });

  test('clients close themselves with await using', async () => {
    let executionId: string;
    {
      await using client = await m3Kit.direct(exampleServer).connect();
      const result = await client.callTool('shipping_quote', { weight_kg: 3, zone: 'regional' });
      expect(result).toHaveStructuredContent({ amount: 15.5, currency: 'USD' });
      executionId = client.executionId;
    }
    const view = await m3Kit.getTraceView(executionId);
    expect(view).toHaveToolCall('shipping_quote', { status: 'success' });
  });
});
