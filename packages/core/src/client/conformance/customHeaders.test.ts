// 2026-07-28 client requirement: arguments a tool's `inputSchema` marks with `x-mcp-header` are
// mirrored into `Mcp-Param-{Name}` HTTP headers, Base64-wrapped when not plain ASCII, omitted when
// null (conformance scenario `http-custom-headers`, SEP-2243). Read off the wire.
import { useKitPerTest } from '@sf-m3/test-utils/client';
import { startConformanceV2 } from './conformanceV2Server.testkit';
import type { RecordingV2Server } from './recordingV2Server.testkit';

const kit = useKitPerTest({ suiteName: 'conformance-2026-07-28', caseId: 'custom-headers' });
let server: RecordingV2Server;
beforeEach(async () => {
  server = await startConformanceV2();
});
afterEach(() => server.close());

const base64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

function headersOfCalls(): Record<string, string | string[] | undefined>[] {
  return server
    .posts()
    .filter((p) => p.message.method === 'tools/call')
    .map((p) => p.request.headers);
}

test('a listed tool: designated arguments become Mcp-Param-* headers, encoded as the spec says', async () => {
  const client = await kit().direct(server.definition()).connect();
  await client.listTools();
  const result = await client.callTool('test_custom_headers', {
    region: 'us-west1',
    priority: 42,
    verbose: false,
    method_val: 'test-method',
    non_ascii_val: 'Hello, \u4e16\u754c',
    whitespace_val: ' padded ',
    crlf_val: 'line1\r\nline2',
    float_val: 3.14159,
    query: 'SELECT * FROM users',
  });
  expect(result.isError).toBe(false);
  await client.close();
  const [headers] = headersOfCalls();
  expect(headers).toMatchObject({
    'mcp-param-region': 'us-west1',
    'mcp-param-priority': '42',
    'mcp-param-verbose': 'false',
    'mcp-param-method': 'test-method',
    'mcp-param-nonascii': base64('Hello, \u4e16\u754c'),
    'mcp-param-whitespace': base64(' padded '),
    'mcp-param-crlf': base64('line1\r\nline2'),
    'mcp-method': 'tools/call',
  });
  // Only designated parameters are mirrored.
  expect(headers).not.toHaveProperty('mcp-param-query');
  expect(headers).not.toHaveProperty('mcp-param-floatval');
});

test('a null argument is omitted; a tool called before any listing goes without Mcp-Param-* headers', async () => {
  const client = await kit().direct(server.definition()).connect();
  await client.callTool('test_custom_headers', { region: 'us-east1', query: 'SELECT 1' });
  await client.listTools();
  await client.callTool('test_custom_headers', { region: 'us-east1', verbose: null, query: 'SELECT 1' });
  await client.close();
  const [unlisted, listed] = headersOfCalls();
  expect(Object.keys(unlisted!).filter((h) => h.startsWith('mcp-param-'))).toEqual([]);
  expect(Object.keys(listed!).filter((h) => h.startsWith('mcp-param-'))).toEqual(['mcp-param-region']);
});
