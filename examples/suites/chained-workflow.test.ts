// A multi-step workflow in one connection: the output of one tool feeds the next.
import { exampleServer } from './servers';

describe.m3('chained workflow', () => {
  test('create then retrieve an order', async () => {
    const client = await m3Kit.direct(exampleServer).connect();

    const customer = await client.callTool('normalize_customer', { name: 'Ada Lovelace' });
    const { customer_id } = customer.structuredContent as { customer_id: string };
    expect(customer_id).toBe('ada-lovelace');

    const created = await client.callTool('create_order', { customer_id, item: 'analytical engine', quantity: 2 });
    const { order_id } = created.structuredContent as { order_id: string };

    const order = await client.callTool('get_order', { order_id });
    expect(order).toHaveStructuredContent({
      order_id: 'order-001',
      customer_id: 'ada-lovelace',
      item: 'analytical engine',
      quantity: 2,
    });

    await client.close();
    expect(client.result).toHaveToolCalls(['normalize_customer', 'create_order', 'get_order']);
  });
});
