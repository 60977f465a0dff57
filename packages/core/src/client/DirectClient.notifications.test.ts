// `client.listen`, `client.notifications` and `client.waitForNotification` (contract §23): the
// same test code against the SDK v2 fixture in the 2026-07-28 era (`subscriptions/listen`) and in
// the legacy era (session stream + `resources/subscribe`), and against the v1 server-everything.
import { ModelValidationError, OperationCancelled, OperationTimeout } from '../errors';
import type { ServerDefinition } from '../servers/ServerDefinition';
import { StdioServer } from '../servers/StdioServer';
import type { DirectClient } from './DirectClient';
import { SERVER_EVERYTHING, useKitPerTest } from '@sf-m3/test-utils/client';
import { startV2Http, v2InProcess, v2Stdio, type V2HttpEndpoint } from '@sf-m3/test-utils/client';

const kit = useKitPerTest({ suiteName: 'notifications', caseId: 'notifications' });

const TOOLS_CHANGED = 'notifications/tools/list_changed';
const RESOURCE_UPDATED = 'notifications/resources/updated';

/** The one test body every era runs: listen, trigger changes, await their notifications. */
async function listensForChanges(client: DirectClient): Promise<void> {
  await client.listen({ toolsChanged: true, resourceUris: ['memory://notes'] });

  await client.callTool('grow', {});
  const changed = await client.waitForNotification(TOOLS_CHANGED, { timeoutMs: 5000 });
  expect(changed.method).toBe(TOOLS_CHANGED);
  expect((await client.listAllTools()).map((t) => t.name)).toContain('grown-1');

  await client.callTool('touch', { text: 'rewritten' });
  const updated = await client.waitForNotification(RESOURCE_UPDATED, { timeoutMs: 5000 });
  expect(updated.params).toMatchObject({ uri: 'memory://notes' });

  // A second change yields a second notification, not the one an earlier wait returned.
  await client.callTool('grow', {});
  const again = await client.waitForNotification(TOOLS_CHANGED, { timeoutMs: 5000 });
  expect(again.order).toBeGreaterThan(updated.order);

  const received = client.notifications.filter((n) => n.method !== 'notifications/message');
  expect(received.map((n) => n.method)).toEqual([TOOLS_CHANGED, RESOURCE_UPDATED, TOOLS_CHANGED]);
  expect(received.map((n) => n.order)).toEqual([...received.map((n) => n.order)].sort((a, b) => a - b));
  // The notifications are the trace's own notification events.
  const eventIds = new Set(client.trace.events.map((e) => e.eventId));
  expect(received.every((n) => eventIds.has(n.eventId))).toBe(true);
}

let http: V2HttpEndpoint;
beforeAll(async () => {
  http = await startV2Http('modern-only');
});
afterAll(() => http?.close());

describe.each<[string, () => ServerDefinition, 'modern' | 'legacy']>([
  ['Streamable HTTP, 2026-07-28', () => http.server(), 'modern'],
  ['stdio, 2026-07-28', () => v2Stdio('both'), 'modern'],
  ['stdio, legacy', () => v2Stdio('both', 'legacy'), 'legacy'],
  ['in process, 2026-07-28', () => v2InProcess(), 'modern'],
  ['in process, legacy', () => v2InProcess('legacy'), 'legacy'],
])('the SDK v2 fixture over %s', (_name, server, era) => {
  test('listen, then each change is awaited with waitForNotification', async () => {
    const client = await kit().direct(server()).connect();
    expect(client.initialization.era).toBe(era);
    await listensForChanges(client);
    const methods = client.trace.events.filter((e) => e.kind === 'mcp.request').map((e) => e.payload.method);
    expect(methods).toContain(era === 'modern' ? 'subscriptions/listen' : 'resources/subscribe');
    await client.close();
  });
});

test('a notification that never comes rejects with OperationTimeout naming the method and the listen option', async () => {
  const client = await kit().direct(v2Stdio('both')).connect();
  // Not listening: a modern server sends no list-changed notification outside subscriptions/listen.
  await client.callTool('grow', {});
  const waiting = client.waitForNotification(TOOLS_CHANGED, { timeoutMs: 300 });
  await expect(waiting).rejects.toThrow(OperationTimeout);
  await expect(waiting).rejects.toThrow(
    /notifications\/tools\/list_changed.*client\.listen\(\{ toolsChanged: true \}\)/,
  );
  await client.close();
});

test('closing the client rejects a pending wait with OperationCancelled', async () => {
  const client = await kit().direct(v2InProcess()).connect();
  await client.listen({ promptsChanged: true });
  const waiting = client.waitForNotification('notifications/prompts/list_changed', { timeoutMs: 30_000 });
  await client.close();
  await expect(waiting).rejects.toThrow(OperationCancelled);
  expect(client.result.snapshot.outcome).not.toBe('failed');
});

test('listen rejects options that ask for nothing or for something it does not know', async () => {
  const client = await kit().direct(v2InProcess()).connect();
  await expect(client.listen({})).rejects.toThrow(ModelValidationError);
  await expect(client.listen({ toolChanged: true } as never)).rejects.toThrow(/does not know toolChanged/);
  await expect(client.listen({ resourceUris: 'memory://notes' } as never)).rejects.toThrow(/resourceUris/);
  await client.close();
});

test('a v1 server (server-everything) in the legacy era: resources/subscribe, then its update notification', async () => {
  const client = await kit()
    .direct(new StdioServer({ name: 'everything', command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] }))
    .connect();
  expect(client.initialization.era).toBe('legacy');
  const uri = 'demo://resource/static/document/architecture.md';
  await client.listen({ resourceUris: [uri] });
  // server-everything sends one update for each subscribed URI at once when the updates are switched on.
  await client.callTool('toggle-subscriber-updates', {});
  const updated = await client.waitForNotification(RESOURCE_UPDATED, { timeoutMs: 5000 });
  expect(updated.params).toEqual({ uri });
  // Its subscribe handler also logs; that notification is in the list too.
  expect(client.notifications.map((n) => n.method)).toContain('notifications/message');
  await client.close();
});
