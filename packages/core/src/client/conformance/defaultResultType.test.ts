// 2026-07-28 client requirement (conformance check `sep-2322-default-result-type-complete`):
// "clients MUST treat an absent `resultType` as `complete`". The SDK v2 server always sends it, so
// the fixture server runs with `--omit-result-type`, which strips `resultType: 'complete'` from
// every result it writes, as a server written without the SDK may.
import { StdioServer } from '../../servers/StdioServer';
import { useKitPerTest } from '@sf-m3/test-utils/client';
import { V2_ERA_SERVER } from '@sf-m3/test-utils/client';

const kit = useKitPerTest({ suiteName: 'conformance-2026-07-28', caseId: 'default-result-type' });

const omitting = new StdioServer({
  name: 'v2-omits-result-type',
  command: process.execPath,
  args: [V2_ERA_SERVER, 'stdio', '--reject', '--omit-result-type'],
});

test('a result without resultType is taken as complete; the trace keeps what the server sent', async () => {
  const client = await kit().direct(omitting).connect();
  expect(client.initialization.era).toBe('modern');
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toContain('echo');
  const result = await client.callTool('echo', { text: 'hi' });
  expect(result.isError).toBe(false);
  expect(result.content).toEqual([{ type: 'text', text: 'modern: hi' }]);
  await client.close();
  const answers = client.trace.events.filter((e) => e.kind === 'mcp.response' || e.kind === 'tool.result_received');
  expect(answers.map((e) => e.payload.method)).toEqual(['tools/list', 'tools/call']);
  for (const answer of answers) expect(JSON.stringify(answer.payload)).not.toContain('resultType');
});
