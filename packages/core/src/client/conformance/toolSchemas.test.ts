// 2026-07-28 client requirements on tool schemas (SEP-2106, SEP-1613): a `$ref` to a network URI
// is never dereferenced (conformance scenario `json-schema-ref-no-deref`), and the 2020-12
// vocabulary survives in the schema the client hands back (`json-schema-2020-12-preservation`).
import { useKitPerTest } from '@sf-m3/test-utils/client';
import { SCHEMA_2020_12, remoteRefSchema, startConformanceV2 } from './conformanceV2Server.testkit';
import type { RecordingV2Server } from './recordingV2Server.testkit';

const kit = useKitPerTest({ suiteName: 'conformance-2026-07-28', caseId: 'tool-schemas' });
let server: RecordingV2Server;
beforeEach(async () => {
  server = await startConformanceV2();
});
afterEach(() => server.close());

test('a remote $ref in a tool schema is never fetched: listing, validating and calling the tool', async () => {
  const client = await kit().direct(server.definition()).connect();
  const { tools } = await client.listTools();
  expect(tools.find((t) => t.name === 'lookup_user')?.inputSchema).toEqual(remoteRefSchema(server.canaryUrl));
  const result = await client.callTool('lookup_user', { id: 'u-1', profile: 'anything' });
  expect(result.isError).toBe(false);
  await client.close();
  // The canary is live (a fetch would count), and nobody fetched it.
  const canary = await fetch(server.canaryUrl);
  expect(await canary.text()).toBe('{"type":"string"}');
  expect(server.canaryFetches()).toBe(1);
});

test('2020-12 keywords are kept in the listed schema and in the schema the client sends back', async () => {
  const client = await kit().direct(server.definition()).connect();
  const { tools } = await client.listTools();
  const observed = tools.find((t) => t.name === 'json_schema_2020_12_tool')!.inputSchema;
  expect(observed).toEqual(SCHEMA_2020_12);
  await client.callTool('json_schema_echo', { schema: observed });
  await client.close();
  const echo = server.posts().find((p) => p.message.params?.name === 'json_schema_echo')!;
  expect((echo.message.params?.arguments as { schema: unknown }).schema).toEqual(SCHEMA_2020_12);
});
