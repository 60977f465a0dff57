// Item 7 (tasks): the SDK v2 2.4.0 does not expose the `io.modelcontextprotocol/tasks` extension.
// A v2 server handler that answers tools/call with the extension's CreateTaskResult
// (`resultType: 'task'`, `task`) does not get it onto the wire: the SDK checks the answer as a
// CallToolResult and sends -32602 instead. This pins that, so the day the SDK ships the extension
// this test fails and the kit's task driver gets built (packages/core/README.md "Protocol eras").
import { ProtocolError } from '../../errors';
import { useKitPerTest } from '@sf-m3/test-utils/client';
import { startConformanceV2 } from './conformanceV2Server.testkit';
import type { RecordingV2Server } from './recordingV2Server.testkit';

const kit = useKitPerTest({ suiteName: 'conformance-2026-07-28', caseId: 'tasks-extension' });
let server: RecordingV2Server;
beforeEach(async () => {
  server = await startConformanceV2();
});
afterEach(() => server.close());

test('a v2 tool answering with a task: the SDK server refuses the result, callTool fails with ProtocolError', async () => {
  const client = await kit().direct(server.definition()).connect();
  const failure = client.callTool('start_job', {});
  await expect(failure).rejects.toBeInstanceOf(ProtocolError);
  await expect(failure).rejects.toThrow(/-32602: Invalid tools\/call result/);
  await client.close();
  const calls = server.posts().filter((p) => p.message.method === 'tools/call');
  expect(calls).toHaveLength(1);
  const answer = JSON.parse(calls[0]!.request.response) as { error?: { code: number }; result?: unknown };
  expect(answer.result).toBeUndefined();
  expect(answer.error).toMatchObject({ code: -32602 });
});
