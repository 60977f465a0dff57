// Tracing and lifecycle: finalized traces, process cleanup, per-connection state.
import { exampleServer } from './servers';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.m3('lifecycle', () => {
  test('a finalized trace numbers every event', async () => {
    const client = await m3Kit.direct(exampleServer).connect();
    await client.callTool('shipping_quote', { weight_kg: 1, zone: 'local' });
    await client.close();

    // After close, `client.trace` is the finalized trace (also `client.finalTrace`).
    const { events } = client.trace;
    const kinds = events.map((event) => event.kind);
    expect(kinds).toEqual(expect.arrayContaining(['tool.call_requested', 'mcp.request', 'mcp.response']));
    expect(kinds.at(-1)).toBe('execution.finished');
    expect(events.map((event) => event.sequence)).toEqual(kinds.map((_, index) => index));
  });

  test('closing a client stops its server process', async () => {
    const client = await m3Kit.direct(exampleServer).connect();
    const { pid } = (await client.callTool('process_id')).structuredContent as { pid: number };
    expect(isAlive(pid)).toBe(true);

    await client.close();
    await expect(client.listAllTools()).rejects.toThrow(/closed/);
    expect(isAlive(pid)).toBe(false);
  });

  test('each connection has its own server state', async () => {
    const first = await m3Kit.direct(exampleServer).connect();
    const created = await first.callTool('create_order', { customer_id: 'ada', item: 'gear', quantity: 1 });
    expect(created).toHaveStructuredContent({ order_id: 'order-001' });

    const second = await m3Kit.direct(exampleServer).connect();
    const missing = await second.callTool('get_order', { order_id: 'order-001' });
    expect(missing).toBeToolError('order not found');
  });

  test('the kit reaps a client the test forgot to close', async () => {
    const client = await m3Kit.direct(exampleServer).connect();
    const { pid } = (await client.callTool('process_id')).structuredContent as { pid: number };
    await m3Kit.close();
    expect(isAlive(pid)).toBe(false);
  });
});
