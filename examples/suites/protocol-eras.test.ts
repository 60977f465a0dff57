// One suite, run once per MCP revision (docs/contract.md §23): `describe.m3(name, { protocols })`
// pins a kit to each revision, so every test runs against the release server (built on the SDK v2,
// serving both eras) in 2025-11-25 and in 2026-07-28, over stdio and over Streamable HTTP. The tests
// are written once; where the eras legitimately differ is how `deploy` asks for confirmation — a
// server-to-client elicitation request in 2025, an `input_required` round in 2026-07-28, which
// `inputRounds` shows — and, over HTTP, that a 2025 request is served statelessly and cannot ask.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { HTTPServer } from 'sf-m3';
import { releaseServer } from './servers';

const PROTOCOLS = ['2025-11-25', '2026-07-28'];
const TOOLS_CHANGED = 'notifications/tools/list_changed';
const confirmWith = (confirm: boolean) => (): { action: 'accept'; content: { confirm: boolean } } => ({
  action: 'accept',
  content: { confirm },
});

describe.m3('protocol eras over stdio', { protocols: PROTOCOLS }, () => {
  test('connects in the pinned revision and reads the same answer', async () => {
    const client = await m3Kit.direct(releaseServer).connect();
    const { era, protocolVersion, serverInfo } = client.initialization;
    expect(era).toBe(protocolVersion === '2026-07-28' ? 'modern' : 'legacy');
    expect(serverInfo.name).toBe('m3-release-server');
    const result = await client.callTool('current_version', {});
    expect(result).toHaveStructuredContent({ version: '1.0.0' });
    await client.close();
  });

  test('deploy asks to confirm: an input round in 2026-07-28, an elicitation request in 2025', async () => {
    const client = await m3Kit.direct(releaseServer, { onElicitation: confirmWith(true) }).connect();
    const result = await client.callTool('deploy', { version: '2.0.0' });
    expect(result).toHaveText('deployed 2.0.0');
    expect(result).toHaveStructuredContent({ version: '2.0.0', previous: '1.0.0' });
    await client.close();
    expect(client).toHaveToolCall('deploy', { status: 'success' });
    // The same handler answered both ways of asking; only the 2026-07-28 call took a round.
    expect(client).toHaveToolCall('deploy', { inputRounds: client.initialization.era === 'modern' ? 1 : 0 });
  });

  test('declining the confirmation keeps the live version', async () => {
    const client = await m3Kit.direct(releaseServer, { onElicitation: confirmWith(false) }).connect();
    const result = await client.callTool('deploy', { version: '2.0.0' });
    expect(result).toHaveText('deploy of 2.0.0 cancelled; 1.0.0 stays live');
    expect(await client.callTool('current_version', {})).toHaveStructuredContent({ version: '1.0.0' });
    await client.close();
  });

  test('enable_rollback changes the tool list, announced in both eras', async () => {
    const client = await m3Kit.direct(releaseServer, { onElicitation: confirmWith(true) }).connect();
    // subscriptions/listen in 2026-07-28; the session's own notification stream in 2025.
    await client.listen({ toolsChanged: true });
    expect((await client.listAllTools()).map((t) => t.name)).not.toContain('rollback');

    await client.callTool('enable_rollback', {});
    await client.waitForNotification(TOOLS_CHANGED, { timeoutMs: 10_000 });
    expect((await client.listAllTools()).map((t) => t.name)).toContain('rollback');

    await client.callTool('deploy', { version: '2.0.0' });
    expect(await client.callTool('rollback', {})).toHaveText('rolled back to 1.0.0');
    await client.close();
    expect(client).toHaveToolCall('rollback', { status: 'success' });
  });
});

/** Starts the release server over Streamable HTTP on a free loopback port. */
function startHttpReleaseServer(): Promise<{ child: ChildProcess; url: string }> {
  const script = path.resolve(__dirname, '../servers/dist/bin/release-server.js');
  const child = spawn(process.execPath, [script, '--http', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(output);
      if (match) resolve({ child, url: match[1] as string });
    });
    child.once('exit', (code) => reject(new Error(`release server exited with ${String(code)}`)));
  });
}

describe.m3('protocol eras over Streamable HTTP', { protocols: PROTOCOLS }, () => {
  let server: { child: ChildProcess; url: string };
  beforeEach(async () => {
    server = await startHttpReleaseServer();
  });
  afterEach(() => server.child.kill());

  test('the tool list change holds across requests in both eras', async () => {
    const client = await m3Kit.direct(new HTTPServer({ name: 'release-http', url: server.url })).connect();
    expect(client.initialization.era).toBe(
      client.initialization.protocolVersion === '2026-07-28' ? 'modern' : 'legacy',
    );
    expect(await client.callTool('current_version', {})).toHaveStructuredContent({ version: '1.0.0' });
    await client.callTool('enable_rollback', {});
    // Over HTTP each 2026-07-28 request (and each 2025 one, served statelessly) gets a fresh
    // server instance; the list reflects the process's state.
    expect((await client.listAllTools()).map((t) => t.name)).toContain('rollback');
    await client.close();
    expect(client).toHaveTransport('http');
  });

  test('deploy over HTTP: asked in an input round in 2026-07-28; a 2025 request cannot be asked', async () => {
    const http = new HTTPServer({ name: 'release-http', url: server.url });
    const client = await m3Kit.direct(http, { onElicitation: confirmWith(true) }).connect();
    const result = await client.callTool('deploy', { version: '2.0.0' });
    await client.close();
    if (client.initialization.era === 'modern') {
      expect(result).toHaveText('deployed 2.0.0');
      expect(client).toHaveToolCall('deploy', { inputRounds: 1 });
    } else {
      // The SDK v2 serves a 2025 request over HTTP statelessly: a fresh instance per request that
      // never saw the client's capabilities, so it cannot send an elicitation request.
      expect(result).toBeToolError('per-request legacy serving cannot receive server-to-client requests');
      expect(client).toHaveToolCall('deploy', { inputRounds: 0 });
    }
  });
});
