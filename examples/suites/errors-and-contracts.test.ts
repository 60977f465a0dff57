// Tool errors are results; contract violations are exceptions you can assert on.
import { ModelValidationError } from 'sf-m3';
import { exampleServer } from './servers';

describe.m3('errors and contracts', () => {
  test('assert an expected tool error', async () => {
    const client = await m3Kit.direct(exampleServer).connect();
    const result = await client.callTool('always_fails');
    expect(result).toBeToolError('expected example failure');
    await client.close();
    expect(client.result).toHaveToolCall('always_fails', { status: 'tool_error' });
  });

  test.each([
    [1, 'local', 7],
    [2, 'regional', 12],
    [0.5, 'international', 8.5],
  ])('shipping contract: %p kg %s costs %p USD', async (weight_kg, zone, amount) => {
    const client = await m3Kit.direct(exampleServer, { validateSchemas: true }).connect();
    const result = await client.callTool('shipping_quote', { weight_kg, zone });
    expect(result).toHaveStructuredContent({ amount, currency: 'USD' });
  });

  test('arguments that break the tool schema are refused before sending', async () => {
    const client = await m3Kit.direct(exampleServer, { validateSchemas: true }).connect();
    const call = client.callTool('shipping_quote', { weight_kg: -1, zone: 'local' });
    await expect(call).rejects.toThrow(ModelValidationError);
    await expect(call).rejects.toThrow('tool JSON Schema validation failed');
  });
});
