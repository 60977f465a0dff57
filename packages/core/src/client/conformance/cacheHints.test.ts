// 2026-07-28 client requirement (docs/contract.md §23): list results keep the server's cache hints
// (`ttlMs`, `cacheScope`) as sent, and the kit never answers a request from a cache.
import { useKitPerTest } from '@sf-m3/test-utils/client';
import { startConformanceV2 } from './conformanceV2Server.testkit';
import type { RecordingV2Server } from './recordingV2Server.testkit';

const kit = useKitPerTest({ suiteName: 'conformance-2026-07-28', caseId: 'cache-hints' });
let server: RecordingV2Server;
beforeEach(async () => {
  server = await startConformanceV2({ cacheHints: { ttlMs: 60_000, cacheScope: 'public' } });
});
afterEach(() => server.close());

test('list results keep ttlMs and cacheScope as the server sent them', async () => {
  const client = await kit().direct(server.definition()).connect();
  const hints = { ttlMs: 60_000, cacheScope: 'public' };
  expect(await client.listTools()).toMatchObject(hints);
  expect(await client.listResources()).toMatchObject(hints);
  expect(await client.listPrompts()).toMatchObject(hints);
  await client.close();
  const listed = server.posts().find((p) => p.message.method === 'tools/list')!;
  expect(JSON.parse(listed.request.response)).toMatchObject({ result: hints });
});

test('a cacheable result is fetched again on every call, never served from a cache', async () => {
  const client = await kit().direct(server.definition()).connect();
  await client.listTools();
  await client.listTools();
  await client.close();
  expect(server.posts().filter((p) => p.message.method === 'tools/list')).toHaveLength(2);
});
