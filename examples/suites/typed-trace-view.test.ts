// The finalized, typed trace view: runtime, tool calls with wire evidence, indexes and filters.
import { CallTool } from 'sf-m3';
import { exampleServer } from './servers';

describe.m3('typed trace view', () => {
  test('a finalized view exposes the direct runtime and the tool call', async () => {
    const result = await m3Kit.run(
      new CallTool({ server: exampleServer, tool: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } }),
    );
    const view = result.traceView;

    expect(result).toBeCompleted();
    expect(view.runtime.kind).toBe('direct');
    expect(view.completeness).toBe('partial');
    expect(view.limitations).toContain('capture_incomplete');
    expect(view.toolCalls[0]?.tool.value).toBe('shipping_quote');
    expect(view.toolCalls[0]?.wire.state).toBe('observed');
    expect(view.summary.timing.durationMs).toBeGreaterThanOrEqual(0);
  });

  test('matchers and filters target the finalized view', async () => {
    const result = await m3Kit.run(
      new CallTool({ server: exampleServer, tool: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } }),
    );
    const view = result.traceView;

    expect(view).toHaveToolCall('shipping_quote', {
      arguments: { weight_kg: 2, zone: 'local' },
      status: 'success',
      count: 1,
    });
    expect(view).not.toHaveToolCall('missing_tool');
    expect(view).toHaveTrace({ completeness: 'partial', limitation: 'capture_incomplete' });
    expect(view.forServer('example-mcp').toolCalls).toEqual(view.toolCalls);
    expect(view.forTurn('unknown-turn').timeline).toEqual([]);
    expect(view.between(0, view.summary.timing.durationMs).timeline.length).toBeGreaterThan(0);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view.toJSON());
  });

  test('the view records the protocol that was negotiated', async () => {
    const client = await m3Kit.direct(exampleServer).connect();
    await client.ping();
    await client.close();
    expect(client).toHaveCapability('tools');
    expect(client).toHaveTransport('stdio');
    expect(client).toHaveEvent('initialization');
  });
});
