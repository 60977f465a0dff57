// 2026-07-28 client requirement: the standard `Mcp-Method` / `Mcp-Name` HTTP request headers
// (conformance scenario `http-standard-headers`, SEP-2243), read off the wire.
import { useKitPerTest } from '@sf-m3/test-utils/client';
import { startConformanceV2 } from './conformanceV2Server.testkit';
import type { RecordingV2Server } from './recordingV2Server.testkit';

const kit = useKitPerTest({ suiteName: 'conformance-2026-07-28', caseId: 'http-headers' });
let server: RecordingV2Server;
beforeEach(async () => {
  server = await startConformanceV2();
});
afterEach(() => server.close());

test('Mcp-Method mirrors the body method on every POST; Mcp-Name mirrors params.name / params.uri', async () => {
  const client = await kit().direct(server.definition()).connect();
  await client.listTools();
  await client.listResources();
  await client.listPrompts();
  await client.callTool('test_headers', {});
  await client.callTool('my-hyphenated-tool', {});
  await client.readResource('file:///path/to/file%20name.txt');
  await client.readResource('https://example.com/resource?id=123');
  await client.getPrompt('test_prompt');
  await client.close();

  const posts = server.posts();
  expect(new Set(posts.map((p) => p.message.method))).toEqual(
    new Set([
      'server/discover',
      'tools/list',
      'resources/list',
      'prompts/list',
      'tools/call',
      'resources/read',
      'prompts/get',
    ]),
  );
  for (const { request, message } of posts) {
    expect(request.headers['mcp-method']).toBe(message.method);
    const params = message.params as { name?: string; uri?: string } | undefined;
    if (message.method === 'tools/call' || message.method === 'prompts/get') {
      expect(request.headers['mcp-name']).toBe(params?.name);
    } else if (message.method === 'resources/read') {
      expect(request.headers['mcp-name']).toBe(params?.uri);
    } else {
      expect(request.headers['mcp-name']).toBeUndefined();
    }
  }
  expect(
    posts.filter((p) => p.request.headers['mcp-name'] !== undefined).map((p) => p.request.headers['mcp-name']),
  ).toEqual([
    'test_headers',
    'my-hyphenated-tool',
    'file:///path/to/file%20name.txt',
    'https://example.com/resource?id=123',
    'test_prompt',
  ]);
});
