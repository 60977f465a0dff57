import { Redactor } from '../../redaction/Redactor';
import { McpServerTape } from './McpServerTape';
import { TapeReplayEndpoint } from './TapeReplayEndpoint';
import { bookIn, testFolder } from './serverCassettes.testkit';

const LIST = { jsonrpc: '2.0' as const, id: 1, method: 'tools/list' };

async function replayTape(): Promise<McpServerTape> {
  const folder = testFolder();
  const recording = bookIn(folder, 'record');
  const tapeOf = (book: ReturnType<typeof bookIn>) =>
    new McpServerTape({
      scope: book.scope('t', { servers: true }),
      serverName: 's',
      trial: 1,
      redactor: new Redactor(),
    });
  tapeOf(recording).record(LIST, { jsonrpc: '2.0', id: 1, result: { tools: [] } }, []);
  await recording.finish({ fullRun: true });
  return tapeOf(bookIn(folder, 'replay'));
}

const post = (endpoint: TapeReplayEndpoint, body: string, token = endpoint.token) =>
  fetch(endpoint.url, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body });

describe('TapeReplayEndpoint', () => {
  test('answers a request from the tape with the asker’s id, only with its token, only on loopback', async () => {
    const tape = await replayTape();
    const endpoint = await TapeReplayEndpoint.start(tape);
    try {
      expect(new URL(endpoint.url).hostname).toBe('127.0.0.1');
      expect((await post(endpoint, JSON.stringify({ message: LIST }), 'wrong')).status).toBe(401);
      expect(tape.counts().replayed).toBe(0);
      expect((await post(endpoint, 'not json')).status).toBe(400);
      expect((await post(endpoint, JSON.stringify({ message: { jsonrpc: '2.0', method: 'x' } }))).status).toBe(400);
      const ok = await post(endpoint, JSON.stringify({ message: { ...LIST, id: 'agent-7' } }));
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ messages: [{ jsonrpc: '2.0', id: 'agent-7', result: { tools: [] } }] });
      // The tape is used up: the same request again is a miss, answered as a JSON-RPC error.
      const again = (await (await post(endpoint, JSON.stringify({ message: LIST }))).json()) as {
        messages: Array<{ error: { code: number; data: unknown } }>;
      };
      expect(again.messages[0]!.error).toMatchObject({ code: -32099, data: { type: 'cassette_miss' } });
      expect(tape.miss()).toMatchObject({ code: 'cassette_miss' });
    } finally {
      await endpoint.close();
    }
  });
});
