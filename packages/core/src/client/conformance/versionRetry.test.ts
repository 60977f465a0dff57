// 2026-07-28 client requirement (conformance scenario `request-metadata`, check
// `sep-2575-client-retry-supported-version`): when the server rejects the first request with the
// unsupported-protocol-version error (-32022, `data.supported`), the client retries with a
// version from that list.
import { useKitPerTest } from '@sf-m3/test-utils/client';
import { startConformanceV2 } from './conformanceV2Server.testkit';
import type { RecordingV2Server } from './recordingV2Server.testkit';

const kit = useKitPerTest({ suiteName: 'conformance-2026-07-28', caseId: 'version-retry' });
let server: RecordingV2Server;
beforeEach(async () => {
  server = await startConformanceV2();
});
afterEach(() => server.close());

test('a first request rejected as unsupported version is retried with a supported one', async () => {
  server.rejectNextVersions(1, ['2026-07-28']);
  const client = await kit().direct(server.definition()).connect();
  await client.callTool('test_headers', {});
  await client.close();
  const posts = server.posts();
  expect(posts[0]!.request.response).toContain('-32022');
  const retried = posts[1]!;
  expect(retried.request.headers['mcp-protocol-version']).toBe('2026-07-28');
  expect(retried.message.params?._meta?.['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
  expect(client.initialization.era).toBe('modern');
});
