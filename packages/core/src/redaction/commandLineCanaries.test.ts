// contract §22: command-line values that look like credentials are redacted in evidence, not only in
// the printed definition: a stdio server repeating its `--token=…` on stderr must not leak it.
import { join } from 'node:path';
import { commandLineCanaries } from '../servers/redactCommandLine';
import { StdioServer } from '../servers/StdioServer';
import { openTransport } from '../transport/openTransport';
import { CONNECTION, setupRecorder } from '../transport/transportTest.testkit';

describe('commandLineCanaries', () => {
  test('values of secret-named assignments, headers, flags and URL query parameters', () => {
    const canaries = commandLineCanaries([
      'server.js',
      '--token=tok-arg-1a2b3c',
      '--api-key',
      'key-arg-4d5e6f',
      'Authorization: Bearer bearer-arg-7a8b9c',
      'https://h.example/mcp?tenant=a&access_token=query-arg-0d1e2f',
      '--max-tokens',
      '1000',
      '--token=short',
      '--verbose',
    ]);
    expect(canaries.sort()).toEqual(
      ['Bearer bearer-arg-7a8b9c', 'bearer-arg-7a8b9c', 'key-arg-4d5e6f', 'query-arg-0d1e2f', 'tok-arg-1a2b3c'].sort(),
    );
  });
});

describe('a stdio server echoing its credential arguments', () => {
  test('its stderr preview and blob hold [REDACTED] instead of the values', async () => {
    const { recorder, redactor } = setupRecorder();
    const secrets = ['tok-echo-5b6c7d8e', 'key-echo-9f0a1b2c'];
    const server = new StdioServer({
      name: 'echo-argv',
      command: process.execPath,
      args: [
        join(__dirname, '__fixtures__', 'echoArgv.js'),
        `--token=${secrets[0]}`,
        '--api-key',
        secrets[1] as string,
      ],
    });
    const opened = await openTransport(server, { redactor, recorder, connectionId: CONNECTION });
    try {
      const deadline = Date.now() + 10_000;
      while (!opened.process!.stderr().includes('log in') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(opened.process!.stderr()).toContain('started with --token=[REDACTED] --api-key [REDACTED]');
      await opened.transport.close();
    } finally {
      await opened.reap();
    }
    await opened.process!.exited;
    const saved = JSON.stringify(recorder.events) + recorder.evidence.map((b) => b.bytes.toString('latin1')).join('');
    expect(saved).toContain('[REDACTED]');
    for (const secret of secrets) expect(saved).not.toContain(secret);
  }, 30_000);
});
