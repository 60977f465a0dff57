import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import OpenAI from 'openai';
import { Redactor } from '../../redaction/Redactor';
import { FakeModelServer } from '../../testing/FakeModelServer';
import { lastUserText } from '../../testing/fakeModelRequest';
import {
  bookOn,
  finishOpenBooks,
  DIALECT_CALLS,
  readResponse,
  tempTestFile,
  type DialectCall,
  type ReadResponse,
  type TempTestFile,
} from '../cassette.testkit';
import type { CassetteChannel } from '../CassetteScope';

/** A port nothing listens on: a replay that tried to connect would get a 502, not the recorded answer. */
const CLOSED = 'http://127.0.0.1:9';
const CHANNEL = 'openai gpt-4o-mini trial 1';
const TEST = 'shipping › quotes a parcel';

type Door = 'HTTP proxy' | 'fetch';

/** Posts `body` through the channel: to its loopback base URL, or through its `fetch` at the upstream URL. */
function send(
  channel: CassetteChannel,
  door: Door,
  upstream: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const init = {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
  return door === 'HTTP proxy' ? fetch(`${channel.baseUrl}${path}`, init) : channel.fetch(`${upstream}${path}`, init);
}

let file: TempTestFile;
let fake: FakeModelServer;
beforeEach(() => {
  file = tempTestFile();
  fake = new FakeModelServer({
    defaultReply: (request) => ({
      content: `You said: ${lastUserText(request)}`,
      usage: { promptTokens: 7, completionTokens: 3 },
    }),
  });
});
afterEach(async () => {
  await finishOpenBooks();
  await fake.close();
  file.remove();
});

describe.each(DIALECT_CALLS)('$dialect', (call: DialectCall) => {
  describe.each([false, true])('stream %s', (stream) => {
    test.each<Door>(['HTTP proxy', 'fetch'])(
      'recorded through the %s, replayed by a new book with the endpoint closed: same status, body and events',
      async (door) => {
        const { origin } = await fake.start();
        const book = bookOn(file, 'record');
        const channel = await book
          .scope(TEST)
          .openChannel({ channel: CHANNEL, upstream: call.upstream(origin), redactor: new Redactor() });
        const live: ReadResponse[] = [];
        for (const text of ['quote 2 kg', 'and 3 kg']) {
          const response = await send(channel, door, call.upstream(origin), call.path, call.body(stream, text), {
            authorization: 'Bearer sk-live-0123456789abcdef',
          });
          live.push(await readResponse(response));
        }
        expect(live.map((r) => r.status)).toEqual([200, 200]);
        expect(live.every((r) => (stream ? r.events !== null && r.events.length > 1 : r.json !== null))).toBe(true);
        expect(fake.modelRequests).toHaveLength(2);
        expect(fake.modelRequests[0]?.headers.authorization).toBe('Bearer sk-live-0123456789abcdef');
        expect(channel.use()).toBe('recorded');
        await channel.close();
        expect(await book.finish({ fullRun: true })).toMatchObject({ recorded: 2, replayed: 0, written: true });
        await fake.close();

        const replayBook = bookOn(file, 'replay');
        const replayChannel = await replayBook
          .scope(TEST)
          .openChannel({ channel: CHANNEL, upstream: call.upstream(CLOSED), redactor: new Redactor() });
        const replayed: ReadResponse[] = [];
        for (const text of ['quote 2 kg', 'and 3 kg']) {
          replayed.push(
            await readResponse(
              await send(replayChannel, door, call.upstream(CLOSED), call.path, call.body(stream, text)),
            ),
          );
        }
        expect(replayed).toEqual(live);
        expect(replayChannel.use()).toBe('replayed');
        expect(replayChannel.counts()).toEqual({ replayed: 2, recorded: 0 });
        expect(replayChannel.miss()).toBeNull();
        await replayChannel.close();
        expect(await replayBook.finish({ fullRun: true })).toMatchObject({ replayed: 2, obsolete: 0, written: false });
      },
    );
  });
});

test('the openai SDK streams through channel.fetch, live and replayed', async () => {
  const { baseUrl } = await fake.start();
  const ask = async (channel: CassetteChannel, base: string): Promise<string> => {
    const client = new OpenAI({ apiKey: 'sk-test-abcdef123456', baseURL: base, fetch: channel.fetch, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: 'hello there' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    return text;
  };
  const book = bookOn(file, 'auto');
  const channel = await book.scope(TEST).openChannel({ channel: CHANNEL, upstream: baseUrl, redactor: new Redactor() });
  expect(await ask(channel, baseUrl)).toBe('You said: hello there');
  await book.finish({ fullRun: true });
  await fake.close();
  const replayBook = bookOn(file, 'replay');
  const replay = await replayBook
    .scope(TEST)
    .openChannel({ channel: CHANNEL, upstream: `${CLOSED}/v1`, redactor: new Redactor() });
  expect(await ask(replay, `${CLOSED}/v1`)).toBe('You said: hello there');
  expect(replay.use()).toBe('replayed');
  await replayBook.finish({ fullRun: true });
});

describe('live traffic', () => {
  let upstream: Server | null = null;
  afterEach(async () => {
    upstream?.closeAllConnections();
    await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
    upstream = null;
  });

  /** A plain HTTP upstream answering with `handler`; returns its origin. */
  async function startUpstream(handler: (req: IncomingMessage, res: import('node:http').ServerResponse) => void) {
    upstream = createServer(handler);
    await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', () => resolve()));
    return `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  }

  test('an SSE response reaches the client event by event, before the upstream has finished it', async () => {
    let finish: () => void = () => undefined;
    const origin = await startUpstream((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":1}\n\n');
      finish = () => res.end('data: {"n":2}\n\ndata: [DONE]\n\n');
    });
    const book = bookOn(file, 'record');
    const channel = await book
      .scope(TEST)
      .openChannel({ channel: CHANNEL, upstream: origin, redactor: new Redactor() });
    const response = await fetch(`${channel.baseUrl}/v1/chat/completions`, { method: 'POST', body: '{"stream":true}' });
    const reader = response.body!.getReader();
    // The upstream sends the rest only after the client has read the first event: a proxy that
    // buffered the stream would never deliver it, and this test would time out.
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString('utf8')).toBe('data: {"n":1}\n\n');
    expect(channel.counts()).toEqual({ replayed: 0, recorded: 0 });
    finish();
    while (!(await reader.read()).done);
    expect(channel.counts()).toEqual({ replayed: 0, recorded: 1 });
    await book.finish({ fullRun: true });
    const saved = JSON.parse(readFileSync(file.cassette, 'utf8')) as {
      tests: Record<string, { channels: Record<string, Array<{ response: { events: string[] } }>> }>;
    };
    expect(saved.tests[TEST]?.channels[CHANNEL]?.[0]?.response.events).toEqual([
      'data: {"n":1}',
      'data: {"n":2}',
      'data: [DONE]',
    ]);
  });

  test.each<Door>(['HTTP proxy', 'fetch'])(
    'a client that stops reading through the %s ends the upstream response, and nothing half-done is recorded',
    async (door) => {
      let upstreamClosed: () => void = () => undefined;
      const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
      const origin = await startUpstream((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"n":1}\n\n');
        res.once('close', () => upstreamClosed());
      });
      const book = bookOn(file, 'record');
      const channel = await book
        .scope(TEST)
        .openChannel({ channel: CHANNEL, upstream: `${origin}/v1`, redactor: new Redactor() });
      const response = await send(channel, door, `${origin}/v1`, '/chat/completions', { stream: true });
      const reader = response.body!.getReader();
      await reader.read();
      await reader.cancel();
      await closed;
      expect(channel.counts()).toEqual({ replayed: 0, recorded: 0 });
      expect(await book.finish({ fullRun: true })).toMatchObject({ recorded: 0, written: false });
    },
  );

  test('a redirect comes back to the client as it is: the proxy does not follow it', async () => {
    const seen: string[] = [];
    const origin = await startUpstream((req, res) => {
      seen.push(req.url ?? '');
      req.resume();
      res.writeHead(307, { location: '/v1/elsewhere', 'content-type': 'application/json' });
      res.end('{"moved":true}');
    });
    const book = bookOn(file, 'record');
    const channel = await book
      .scope(TEST)
      .openChannel({ channel: CHANNEL, upstream: `${origin}/v1`, redactor: new Redactor() });
    const response = await channel.fetch(`${origin}/v1/chat/completions`, {
      method: 'POST',
      body: '{}',
      redirect: 'manual',
    });
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe('/v1/elsewhere');
    expect(seen).toEqual(['/v1/chat/completions']);
    await book.finish({ fullRun: true });
  });

  test.each<Door>(['HTTP proxy', 'fetch'])(
    'a compressed answer reaches the client through the %s decoded, and the cassette holds it as JSON',
    async (door) => {
      const origin = await startUpstream((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipSync('{"answer":"packed"}'));
      });
      const book = bookOn(file, 'record');
      const channel = await book
        .scope(TEST)
        .openChannel({ channel: CHANNEL, upstream: `${origin}/v1`, redactor: new Redactor() });
      const live = await readResponse(await send(channel, door, `${origin}/v1`, '/chat/completions', {}));
      expect(live.json).toEqual({ answer: 'packed' });
      await book.finish({ fullRun: true });
      expect(readFileSync(file.cassette, 'utf8')).toContain('"answer": "packed"');
    },
  );

  test('an upstream that cannot be reached in record mode answers 502 with the reason, and nothing is recorded', async () => {
    const book = bookOn(file, 'record');
    const channel = await book
      .scope(TEST)
      .openChannel({ channel: CHANNEL, upstream: `${CLOSED}/v1`, redactor: new Redactor() });
    const response = await fetch(`${channel.baseUrl}/chat/completions`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(502);
    const body = (await response.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('cassette_upstream_unreachable');
    expect(body.error.message).toContain('could not reach the model endpoint http://127.0.0.1:9 (ECONNREFUSED)');
    expect(channel.use()).toBeNull();
    expect(await book.finish({ fullRun: true })).toMatchObject({ recorded: 0, written: false });
    expect(() => readFileSync(file.cassette)).toThrow(/ENOENT/);
  });

  test('volatile strings are stored as placeholders and replayed as this run’s values', async () => {
    const { baseUrl } = await fake.start();
    const body = (dir: string) => ({ model: 'm', messages: [{ role: 'user', content: `list ${dir}/work` }] });
    const book = bookOn(file, 'record');
    const channel = await book.scope(TEST).openChannel({
      channel: CHANNEL,
      upstream: baseUrl,
      volatileStrings: ['/tmp/run-aaa'],
      redactor: new Redactor(),
    });
    await readResponse(await send(channel, 'HTTP proxy', baseUrl, '/chat/completions', body('/tmp/run-aaa')));
    await book.finish({ fullRun: true });
    const text = readFileSync(file.cassette, 'utf8');
    expect(text).not.toContain('/tmp/run-aaa');
    expect(text).toContain('list <volatile:1>/work');

    const replayBook = bookOn(file, 'replay');
    const replay = await replayBook.scope(TEST).openChannel({
      channel: CHANNEL,
      upstream: `${CLOSED}/v1`,
      volatileStrings: ['/tmp/run-bbb'],
      redactor: new Redactor(),
    });
    const answer = await readResponse(
      await send(replay, 'fetch', `${CLOSED}/v1`, '/chat/completions', body('/tmp/run-bbb')),
    );
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.json)).toContain('You said: list /tmp/run-bbb/work');
    await replayBook.finish({ fullRun: true });
  });
});

test('a request with no recorded answer in replay gets HTTP 599 (not to be retried) with the miss message, and channel.miss() keeps the first', async () => {
  const { baseUrl } = await fake.start();
  const chat = DIALECT_CALLS[0]!;
  const book = bookOn(file, 'record');
  const channel = await book.scope(TEST).openChannel({ channel: CHANNEL, upstream: baseUrl, redactor: new Redactor() });
  await readResponse(await send(channel, 'HTTP proxy', baseUrl, chat.path, chat.body(false, 'Add 2 and 3')));
  await book.finish({ fullRun: true });

  const replayBook = bookOn(file, 'replay');
  const replay = await replayBook
    .scope(TEST)
    .openChannel({ channel: CHANNEL, upstream: `${CLOSED}/v1`, redactor: new Redactor() });
  const first = await send(replay, 'HTTP proxy', '', chat.path, chat.body(false, 'Add 2 and 4'));
  expect(first.status).toBe(599);
  // The SDKs inside the CLIs would retry a 5xx with backoff; this header tells them not to.
  expect(first.headers.get('x-should-retry')).toBe('false');
  const body = (await first.json()) as { error: { type: string; message: string } };
  expect(body.error.type).toBe('cassette_miss');
  expect(body.error.message).toContain('- "content": "Add 2 and 3",');
  expect(body.error.message).toContain('+ "content": "Add 2 and 4",');
  await send(replay, 'fetch', `${CLOSED}/v1`, chat.path, chat.body(false, 'something else'));
  const miss = replay.miss() as Error & { code?: string };
  expect(miss.message).toBe(body.error.message);
  expect(miss.code).toBe('cassette_miss');
  expect(replay.use()).toBeNull();
  expect(fake.modelRequests).toHaveLength(1);
  await replayBook.finish({ fullRun: true });
});

test('mode off passes traffic through live and neither reads nor writes the cassette', async () => {
  const { baseUrl } = await fake.start();
  const book = bookOn(file, 'off');
  const channel = await book.scope(TEST).openChannel({ channel: CHANNEL, upstream: baseUrl, redactor: new Redactor() });
  const chat = DIALECT_CALLS[0]!;
  const answer = await readResponse(await send(channel, 'fetch', baseUrl, chat.path, chat.body(false, 'hi')));
  expect(answer.status).toBe(200);
  expect(fake.modelRequests).toHaveLength(1);
  expect(channel.use()).toBeNull();
  expect(await book.finish({ fullRun: true })).toMatchObject({ replayed: 0, recorded: 0, obsolete: 0, written: false });
  expect(() => readFileSync(file.cassette)).toThrow(/ENOENT/);
});

test('channel.fetch refuses a URL outside its upstream instead of sending it anywhere', async () => {
  const book = bookOn(file, 'replay');
  const channel = await book
    .scope(TEST)
    .openChannel({ channel: CHANNEL, upstream: `${CLOSED}/v1`, redactor: new Redactor() });
  await expect(
    channel.fetch('http://127.0.0.1:10/v1/chat/completions', { method: 'POST', body: '{}' }),
  ).rejects.toMatchObject({
    code: 'invalid_argument',
    message: expect.stringContaining('only answers requests under http://127.0.0.1:9') as unknown,
  });
});
