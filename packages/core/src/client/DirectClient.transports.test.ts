// Every contract §4 operation against the example server, over each transport the kit supports: the
// compiled server binary over stdio, the same binary with `--http 0` over Streamable HTTP, and the
// server factory linked in process. One scenario, three transports, the same answers.
import { EXAMPLE_SERVER_NAME, TESTING_GUIDE_TEXT } from '@sf-m3/example-servers';
import { kitOf } from '../ownership/kitLink';
import type { DirectClient } from './DirectClient';
import { requests, waitForExit, useKitPerTest } from '@sf-m3/test-utils/client';
import { exampleServerRows, useExampleHttpServer } from './exampleTransports.testkit';

const httpUrl = useExampleHttpServer();

const kit = useKitPerTest({ suiteName: 'transports', caseId: 'every-operation' });

const transports = exampleServerRows('example', httpUrl);

/** Runs every contract §4 operation once and checks each answer. */
async function exerciseEveryOperation(client: DirectClient): Promise<void> {
  expect(client.connected).toBe(true);
  expect(client.initialization?.serverInfo.name).toBe(EXAMPLE_SERVER_NAME);
  expect(client.initialization?.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(client.initialization?.capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
  expect(client.initialization?.instructions).toContain('Deterministic');
  expect(await client.initialize()).toBe(client.initialization);

  const first = await client.listTools();
  expect(first.nextCursor).toBe('page-2');
  expect(first.tools.length).toBeGreaterThanOrEqual(7);
  expect(first.tools.map((t) => t.name)).toContain('shipping_quote');
  const second = await client.listTools({ cursor: first.nextCursor });
  expect(second.tools.map((t) => t.name)).toEqual(['catalog_marker']);
  expect(second.nextCursor).toBeUndefined();
  expect((await client.listAllTools()).map((t) => t.name)).toEqual(
    [...first.tools, ...second.tools].map((t) => t.name),
  );

  const resources = await client.listAllResources();
  expect(resources.map((r) => r.uri)).toEqual(['memory://testing-guide']);
  expect((await client.listResources()).resources).toEqual(resources);
  const templates = await client.listAllResourceTemplates();
  expect(templates.map((t) => t.uriTemplate)).toEqual(['memory://orders/{order_id}']);
  expect((await client.listResourceTemplates()).resourceTemplates).toEqual(templates);
  expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['review_order']);
  expect((await client.listAllPrompts()).map((p) => p.name)).toEqual(['review_order']);

  const guide = await client.readResource('memory://testing-guide');
  expect(guide.text).toBe(TESTING_GUIDE_TEXT);
  expect(guide.contents).toHaveLength(1);
  const prompt = await client.getPrompt('review_order', { order_id: 'order-042' });
  expect(prompt.description).toBe('Review a stored order');
  expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Review order order-042 for correctness.' });
  const completion = await client.complete(
    { type: 'ref/prompt', name: 'review_order' },
    { name: 'order_id', value: 'order-' },
  );
  expect(completion.values).toEqual(['order-001', 'order-002']);
  expect(completion.hasMore).toBe(false);
  expect(completion.total === null || completion.total === 2).toBe(true);

  await client.subscribeResource('memory://testing-guide');
  expect((await client.callTool('session_observations')).structuredContent).toMatchObject({
    subscriptions: ['memory://testing-guide'],
  });
  await client.unsubscribeResource('memory://testing-guide');
  await client.ping();
  await client.setLoggingLevel('warning');
  await client.sendNotification({ method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } });
  await client.sendRootsListChanged();
  expect((await client.callTool('session_observations')).structuredContent).toEqual({
    logging_level: 'warning',
    progress_notifications: 1,
    roots_changed: 1,
    subscriptions: [],
  });

  const quote = await client.callTool('shipping_quote', { weight_kg: 2, zone: 'local' });
  expect(quote).toMatchObject({ isError: false, structuredContent: { amount: 9, currency: 'USD' } });
  expect(quote.content).toEqual([{ type: 'text', text: JSON.stringify({ amount: 9, currency: 'USD' }) }]);
  expect(quote.executionId).toBe(client.executionId);
  expect(quote).toMatchObject({ tool: 'shipping_quote', server: 'example' });
  expect(kitOf(quote)).toBe(kit());
  expect(kitOf(client)).toBe(kit());
  const failed = await client.callTool('always_fails');
  expect(failed.isError).toBe(true);
}

describe.each(transports)('every contract §4 operation against the example server over %s', (transport, server) => {
  test('answers every operation and records a finalized trace of the wire', async () => {
    const client = await kit()
      .direct(server(), { onRoots: () => [{ uri: 'file:///work', name: 'work' }] })
      .connect();
    const pid = (await client.callTool('process_id')).structuredContent as { pid: number };
    await exerciseEveryOperation(client);
    expect(client.trace.finalized).toBe(false);
    await client.close();

    expect(client.closed).toBe(true);
    expect(client.result?.snapshot.outcome).toBe('completed');
    expect(client.result?.snapshot).toMatchObject({
      lifecycle: 'finished',
      suiteName: 'transports',
      caseId: 'every-operation',
    });
    expect(client.finalTrace?.finalized).toBe(true);
    const view = client.result!.traceView;
    expect(view.runtime.kind).toBe('direct');
    expect(view.toolCalls.map((c) => c.toolStatus)).toEqual(['success', 'success', 'success', 'success', 'tool_error']);
    const events = client.finalTrace!.events;
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i));
    for (const method of [
      'initialize',
      'tools/list',
      'resources/list',
      'resources/templates/list',
      'prompts/list',
      'resources/read',
      'prompts/get',
      'completion/complete',
      'resources/subscribe',
      'resources/unsubscribe',
      'ping',
      'logging/setLevel',
      'tools/call',
    ]) {
      expect(requests(events, method).length).toBeGreaterThan(0);
    }
    const record = await kit().store.getExecution(client.executionId);
    expect(record.servers[0]).toMatchObject({ name: 'example', transport });
    if (transport === 'stdio') {
      expect(events.find((e) => e.kind === 'process.started')?.payload.pid).toBe(pid.pid);
      expect(await waitForExit(pid.pid)).toBe(true);
    }
  });
});
