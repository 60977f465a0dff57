import { createExampleServer } from '@sf-m3/example-servers';
import { CallTool, ReadResource } from '../../core/src/kit/DirectSpec';
import { MCPTestKit } from '../../core/src/kit/MCPTestKit';
import { InProcessServer } from '../../core/src/servers/InProcessServer';
import { m3Matchers } from './index';
import { failureOf } from './matchers.testkit';

expect.extend(m3Matchers);

const example = new InProcessServer({ name: 'example', factory: createExampleServer });

describe('matchers on a real DirectClient (in-process example server)', () => {
  let kit: MCPTestKit;
  beforeEach(() => {
    kit = new MCPTestKit({ recordChecks: true });
  });
  afterEach(async () => {
    await kit.close();
  });

  test('tool results, resources, the open client and the closed client', async () => {
    const client = await kit.direct(example).connect();
    const quote = await client.callTool('shipping_quote', { weight_kg: 2, zone: 'local' });
    expect(quote).not.toBeToolError();
    expect(quote).toHaveStructuredContent({ amount: 9, currency: 'USD' }, { partial: true });
    const fails = await client.callTool('always_fails');
    expect(fails).toBeToolError('expected example failure');
    expect(fails).toHaveText('expected example failure');
    const guide = await client.readResource('memory://testing-guide');
    expect(guide).toHaveTextContaining('Discover capabilities');

    // Before close: positive initialization facts work, negative trace assertions are refused.
    expect(client).toHaveProtocolVersion(client.initialization!.protocolVersion);
    expect(failureOf(() => expect(client).not.toHaveToolCall('delete_everything'))).toContain(
      'a negative assertion needs a finalized subject',
    );

    await client.close();
    expect(client).toHaveToolCall('shipping_quote', {
      arguments: { weight_kg: 2, zone: 'local' },
      status: 'success',
      count: 1,
    });
    expect(client).toHaveToolCall('always_fails', { status: 'tool_error' });
    expect(client).not.toHaveToolCall('delete_everything');
    expect(client).toHaveToolCalls(['shipping_quote', 'always_fails']);
    expect(client).toBeCompleted();
    expect(client).toHaveTransport('in_process');
    expect(client).toHaveCapability('tools');
    expect(client).toHaveTrace({ completeness: 'partial', limitation: 'capture_incomplete' });
    expect(client).toHaveEvent('tool_call', { count: 2 });
    expect(client.result).toHaveLifecycle('finished');

    const message = failureOf(() => expect(client).toHaveToolCall('shipping_quote', { arguments: { zone: 'far' } }));
    expect(message).toContain('1. shipping_quote on example (success');
    expect(message).toContain(`executionId=${client.executionId}`);

    await kit.close(); // awaits the check writes the matchers left pending
    const recorded = kit.evaluationResults().filter((r) => r.evaluator.startsWith('m3.expect.'));
    expect(recorded.length).toBeGreaterThanOrEqual(15);
    expect(recorded.every((r) => r.executionId === client.executionId)).toBe(true);
    // A resource read's text assertion is saved like the tool results' ones (issue 27).
    expect(recorded.map((r) => r.evaluator)).toContain('m3.expect.toHaveTextContaining');
    // The refused negative check on the open client records under its own `not` name.
    expect(recorded.filter((r) => r.status === 'failed').map((r) => r.evaluator)).toEqual([
      'm3.expect.not.toHaveToolCall',
      'm3.expect.toHaveToolCall',
    ]);
  });

  test('toHaveTransport cannot pass either way on an open client, which does not expose its transport', async () => {
    const client = await kit.direct(example).connect();
    expect(failureOf(() => expect(client).toHaveTransport('in_process'))).toContain('finalized trace unavailable');
    expect(failureOf(() => expect(client).not.toHaveTransport('stdio'))).toContain(
      'a negative assertion needs a finalized subject',
    );
    await client.close();
    expect(client).toHaveTransport('in_process');
    expect(client).not.toHaveTransport('stdio');
  });
});

describe('matchers on kit.run(...) results of direct specs', () => {
  test('the ExecutionResult of CallTool / ReadResource is asserted through its directResult', async () => {
    const kit = new MCPTestKit();
    try {
      const quote = await kit.run(
        new CallTool({ server: example, tool: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } }),
      );
      expect(quote).toHaveStructuredContent({ amount: 9, currency: 'USD' }, { partial: true });
      expect(quote).not.toBeToolError();
      expect(quote).toHaveToolCall('shipping_quote', { count: 1 });
      expect(quote).toBeCompleted();
      const fails = await kit.run(new CallTool({ server: example, tool: 'always_fails' }));
      expect(fails).toBeToolError('expected example failure');
      expect(fails).toHaveText('expected example failure');
      const guide = await kit.run(new ReadResource({ server: example, uri: 'memory://testing-guide' }));
      expect(guide).toHaveTextContaining('Discover capabilities');
    } finally {
      await kit.close();
    }
  });
});
