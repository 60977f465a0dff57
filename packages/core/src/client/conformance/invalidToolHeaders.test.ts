// 2026-07-28 client requirement: a tool whose `x-mcp-header` declarations are invalid (empty,
// not a primitive, not unique case-insensitively, not an RFC 9110 token) is not called, and the
// valid tools stay usable (conformance scenario `http-invalid-tool-headers`, SEP-2243). The kit
// still lists such a tool (a test must see what the server sends); calling it after it was listed
// fails with `ProtocolError` code `invalid_tool_definition`, and nothing reaches the wire.
import { ProtocolError } from '../../errors';
import { useKitPerTest } from '@sf-m3/test-utils/client';
import { INVALID_HEADER_TOOLS, startConformanceV2 } from './conformanceV2Server.testkit';
import type { RecordingV2Server } from './recordingV2Server.testkit';

const kit = useKitPerTest({ suiteName: 'conformance-2026-07-28', caseId: 'invalid-tool-headers' });
let server: RecordingV2Server;
beforeEach(async () => {
  server = await startConformanceV2();
});
afterEach(() => server.close());

test('listed tools with invalid x-mcp-header declarations are refused before the wire; the valid one is called', async () => {
  const client = await kit().direct(server.definition()).connect();
  const { tools } = await client.listTools();
  for (const [name] of INVALID_HEADER_TOOLS) {
    expect(tools.map((t) => t.name)).toContain(name);
    const refused = client.callTool(name, { a: 'x' });
    await expect(refused).rejects.toBeInstanceOf(ProtocolError);
    await expect(refused).rejects.toMatchObject({
      code: 'invalid_tool_definition',
      message: expect.stringContaining(`tool ${name} was not called: its inputSchema has an invalid x-mcp-header`),
    });
  }
  const valid = await client.callTool('valid_tool', { region: 'eu-west1' });
  expect(valid.isError).toBe(false);
  await client.close();
  const called = server.posts().filter((p) => p.message.method === 'tools/call');
  expect(called.map((p) => p.message.params?.name)).toEqual(['valid_tool']);
  expect(called[0]!.request.headers['mcp-param-region']).toBe('eu-west1');
});
