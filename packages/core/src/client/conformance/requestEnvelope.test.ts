// 2026-07-28 client requirement: the per-request `_meta` envelope (conformance scenario
// `request-metadata`, SEP-2575) and `server/discover` first, read off the wire.
import { useKitPerTest } from '@sf-m3/test-utils/client';
import { startConformanceV2 } from './conformanceV2Server.testkit';
import type { RecordingV2Server } from './recordingV2Server.testkit';

const kit = useKitPerTest({ suiteName: 'conformance-2026-07-28', caseId: 'request-envelope' });
let server: RecordingV2Server;
beforeEach(async () => {
  server = await startConformanceV2();
});
afterEach(() => server.close());

async function exercise(): Promise<void> {
  const client = await kit()
    .direct(server.definition(), {
      onElicitation: () => ({ action: 'accept', content: { ok: true } }),
      onSampling: () => ({ role: 'assistant', content: { type: 'text', text: 'unused' }, model: 'none' }),
      onRoots: () => [{ uri: 'file:///unused' }],
    })
    .connect();
  await client.listTools();
  await client.callTool('two_questions', {});
  await client.readResource('file:///path/to/file%20name.txt');
  await client.getPrompt('test_prompt');
  await client.close();
}

describe('2026-07-28 request _meta envelope (request-metadata)', () => {
  test('every request carries protocolVersion, clientInfo and clientCapabilities in _meta', async () => {
    await exercise();
    const posts = server.posts();
    expect(posts.map((p) => p.message.method)).toEqual([
      'server/discover',
      'tools/list',
      'tools/call',
      'tools/call',
      'resources/read',
      'prompts/get',
    ]);
    for (const { message } of posts) {
      const meta = message.params?._meta;
      expect(meta).toMatchObject({
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: expect.any(String), version: expect.any(String) },
        // Handlers given: each capability is declared as an object (sep-2575-client-declares-*).
        'io.modelcontextprotocol/clientCapabilities': {
          elicitation: expect.any(Object),
          sampling: expect.any(Object),
          roots: expect.any(Object),
        },
      });
      const capabilities = meta?.['io.modelcontextprotocol/clientCapabilities'] as Record<string, unknown>;
      for (const name of ['elicitation', 'sampling', 'roots']) expect(Array.isArray(capabilities[name])).toBe(false);
    }
  });

  test('every POST has an MCP-Protocol-Version header equal to _meta.protocolVersion', async () => {
    await exercise();
    for (const { request, message } of server.posts()) {
      expect(request.headers['mcp-protocol-version']).toBe(
        message.params?._meta?.['io.modelcontextprotocol/protocolVersion'],
      );
    }
  });

  test.each(['auto', '2026-07-28'] as const)(
    'protocol %s: server/discover is the first request on the wire',
    async (protocol) => {
      const client = await kit().direct(server.definition(protocol)).connect();
      await client.callTool('test_headers', {});
      await client.close();
      expect(server.posts()[0]!.message.method).toBe('server/discover');
      expect(client.initialization).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    },
  );
});
