// Contract §24 (and §22): no API key, bearer token, cookie or run canary ever reaches a cassette.
import { readFileSync } from 'node:fs';
import { Redactor } from '../redaction/Redactor';
import { FakeModelServer } from '../testing/FakeModelServer';
import { bookOn, finishOpenBooks, readResponse, tempTestFile } from './cassette.testkit';

test('keys, bearer tokens, cookies and canaries in headers, query and bodies never reach the file', async () => {
  const canary = 'm3-canary-7d1e4c2b9a';
  const fake = new FakeModelServer({ defaultReply: { content: `echo ${canary} Bearer sk-live-9f8e7d6c5b4a3210` } });
  const file = tempTestFile();
  try {
    const { baseUrl } = await fake.start();
    const book = bookOn(file, 'record');
    const channel = await book
      .scope('secrets')
      .openChannel({ channel: 'openai m trial 1', upstream: baseUrl, redactor: new Redactor([canary]) });
    for (const stream of [false, true]) {
      const response = await fetch(`${channel.baseUrl}/chat/completions?api_key=sk-query-1234567890ab`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: 'Bearer sk-live-0123456789abcdef',
          'x-api-key': 'sk-ant-api03-abcdef0123456789',
          cookie: 'session=cookie-value-5566778899',
        },
        body: JSON.stringify({
          model: 'm',
          stream,
          messages: [{ role: 'user', content: `my canary is ${canary}, my key Bearer sk-live-0123456789abcdef` }],
          api_key: 'sk-body-abcdef0123456789',
        }),
      });
      expect((await readResponse(response)).status).toBe(200);
    }
    // the key did reach the provider: the proxy forwards every header but the hop-by-hop ones
    expect(fake.requests[0]?.headers['x-api-key']).toBe('sk-ant-api03-abcdef0123456789');
    expect(await book.finish({ fullRun: true })).toMatchObject({ recorded: 2, written: true });
    const bytes = readFileSync(file.cassette, 'utf8');
    for (const secret of [
      canary,
      'sk-live-0123456789abcdef',
      'sk-live-9f8e7d6c5b4a3210',
      'sk-ant-api03-abcdef0123456789',
      'cookie-value-5566778899',
      'sk-query-1234567890ab',
      'sk-body-abcdef0123456789',
    ]) {
      expect(bytes).not.toContain(secret);
    }
    expect(bytes).not.toMatch(/authorization|x-api-key|cookie/i);
    expect(bytes).toContain('[REDACTED]');
  } finally {
    await finishOpenBooks();
    await fake.close();
    file.remove();
  }
});
