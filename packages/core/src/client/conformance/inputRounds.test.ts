// 2026-07-28 client requirements on multi-round-trip requests (conformance scenario
// `sep-2322-client-request-state`, SEP-2322): `requestState` echoed byte for byte, `inputResponses`
// keyed as the server asked, a new JSON-RPC id per retry, no `requestState` the server did not
// send, nothing carried over to an unrelated call. Read off the wire.
import { useKitPerTest } from '@sf-m3/test-utils/client';
import { MINTED_STATE, startConformanceV2 } from './conformanceV2Server.testkit';
import type { RecordingV2Server, WireMessage } from './recordingV2Server.testkit';

const kit = useKitPerTest({ suiteName: 'conformance-2026-07-28', caseId: 'input-rounds' });
let server: RecordingV2Server;
beforeEach(async () => {
  server = await startConformanceV2();
});
afterEach(() => server.close());

function callsOf(name: string): { body: string; message: WireMessage }[] {
  return server
    .posts()
    .filter((p) => p.message.method === 'tools/call' && p.message.params?.name === name)
    .map((p) => ({ body: p.request.body, message: p.message }));
}

async function connect() {
  return kit()
    .direct(server.definition(), {
      onElicitation: (params) => ({ action: 'accept', content: { ok: params.message === 'first?' } }),
    })
    .connect();
}

test('requestState goes back exactly as minted, inputResponses carry exactly the keys asked, the retry has a new id', async () => {
  const client = await connect();
  const result = await client.callTool('two_questions', {});
  await client.close();
  expect(result.content).toEqual([{ type: 'text', text: 'answers: {"ok":true} {"ok":false}' }]);

  const [first, retry] = callsOf('two_questions');
  expect(first!.message.params).not.toHaveProperty('requestState');
  expect(first!.message.params).not.toHaveProperty('inputResponses');
  // Byte-exact: the JSON string on the wire decodes to the very string the server minted (not
  // canonical JSON, with a tab, U+2028 and an astral character), and is encoded as the server did.
  expect(retry!.message.params?.requestState).toBe(MINTED_STATE);
  expect(retry!.body).toContain(`"requestState":${JSON.stringify(MINTED_STATE)}`);
  expect(Object.keys(retry!.message.params?.inputResponses as object).sort()).toEqual(['first', 'second']);
  expect(retry!.message.params?.inputResponses).toEqual({
    first: { action: 'accept', content: { ok: true } },
    second: { action: 'accept', content: { ok: false } },
  });
  expect(retry!.message.id).not.toBe(first!.message.id);
});

test('no requestState when the server sent none; an unrelated call in between carries nothing over', async () => {
  const client = await connect();
  await client.callTool('two_questions', {});
  await client.callTool('test_headers', {});
  await client.callTool('one_question', {});
  await client.close();

  const [unrelated] = callsOf('test_headers');
  expect(unrelated!.message.params).not.toHaveProperty('requestState');
  expect(unrelated!.message.params).not.toHaveProperty('inputResponses');
  const [first, retry] = callsOf('one_question');
  expect(first!.message.params).not.toHaveProperty('requestState');
  expect(retry!.message.params).not.toHaveProperty('requestState');
  expect(Object.keys(retry!.message.params?.inputResponses as object)).toEqual(['only']);
  expect(retry!.message.id).not.toBe(first!.message.id);
});

test('parallel calls keep their rounds apart', async () => {
  const client = await connect();
  await Promise.all([client.callTool('two_questions', {}), client.callTool('one_question', {})]);
  await client.close();
  expect(callsOf('two_questions')[1]!.message.params?.requestState).toBe(MINTED_STATE);
  expect(Object.keys(callsOf('two_questions')[1]!.message.params?.inputResponses as object).sort()).toEqual([
    'first',
    'second',
  ]);
  expect(callsOf('one_question')[1]!.message.params).not.toHaveProperty('requestState');
  expect(Object.keys(callsOf('one_question')[1]!.message.params?.inputResponses as object)).toEqual(['only']);
});
