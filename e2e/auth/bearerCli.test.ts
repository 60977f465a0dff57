// `m3 test --server http --url URL --bearer-env NAME`: the kit in every worker reads the bearer
// token from NAME and sends it to a loopback MCP server that answers only with it (contract §17 bearer
// auth). The token is on no command line, and no output, report or database byte holds it. An
// unset variable is a usage error (exit 2) before Jest starts; a wrong token fails the test with
// the server's 401, redacted.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { copyFixture, ensureBuilt, printedRunId, removeFixture, runM3Async, withStore } from '../cli.testkit';
import { filesUnder, plantCanaries, searchCanaries } from '../faults/secrets.testkit';

jest.setTimeout(240_000);

const canaries = plantCanaries(['token', 'wrong'] as const);

function echoServer(): McpServer {
  const server = new McpServer({ name: 'ship', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}

/** A stateless Streamable HTTP MCP server on 127.0.0.1 that answers 401 without `Bearer <token>`. */
async function bearerServer(token: string): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  const http: Server = createServer((req, res) => {
    seen.push(req.headers.authorization ?? '');
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
      res.end(JSON.stringify({ error: 'invalid_token' }));
      return;
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = echoServer();
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  const close = async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return { url, seen, close };
}

describe('m3 test --server http --bearer-env NAME', () => {
  let server: Awaited<ReturnType<typeof bearerServer>>;
  let folder: string;
  const args = () => ['test', '--server', 'http', '--url', server.url, '--bearer-env', 'SHIP_TOKEN', '--name', 'ship'];
  beforeAll(async () => {
    ensureBuilt();
    server = await bearerServer(canaries.token);
    folder = copyFixture('auth-bearer-cli');
  });
  afterAll(async () => {
    await server?.close();
    removeFixture(folder);
  });

  test('the token from the variable authenticates every request, and is never printed or saved', async () => {
    const run = await runM3Async(args(), folder, { SHIP_TOKEN: canaries.token, M3_LOG_LEVEL: 'debug' });
    expect(run.stdout).toContain('attempts    1 passed, 0 failed, 0 skipped, 0 todo');
    expect(run.status).toBe(0);
    expect(server.seen.length).toBeGreaterThanOrEqual(3);
    expect(new Set(server.seen)).toEqual(new Set([`Bearer ${canaries.token}`]));
    const runId = printedRunId(run.stdout);
    const saved = await withStore(folder, (store) => store.getRun(runId));
    expect(saved!.argv).toEqual(expect.arrayContaining(['--bearer-env', 'SHIP_TOKEN']));

    const wrong = await runM3Async(args(), folder, { SHIP_TOKEN: canaries.wrong, M3_LOG_LEVEL: 'debug' });
    expect(wrong.status).toBe(1);
    const attempts = await withStore(folder, (store) => store.listAttempts({ runId: printedRunId(wrong.stdout) }));
    expect(attempts.map((a) => a.outcome)).toEqual(['failed']);
    expect(attempts[0]!.failureMessage).toContain('AuthenticationError');

    const sources = [
      { where: 'stdout', bytes: run.stdout + wrong.stdout },
      { where: 'stderr (debug logs)', bytes: run.stderr + wrong.stderr },
      ...filesUnder(join(folder, '.m3')).map((file) => ({ where: file.slice(folder.length + 1), file })),
    ];
    expect(searchCanaries(canaries, sources)).toEqual([]);
  });

  test('an unset variable is a usage error naming it, before Jest starts', async () => {
    const before = server.seen.length;
    const run = await runM3Async(args(), folder, { SHIP_TOKEN: '' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      'm3: --bearer-env: SHIP_TOKEN (the bearer token of server "ship") is not set: ' +
        'export SHIP_TOKEN=<token> or put it in the --env-file',
    );
    expect(run.stderr).not.toContain('Tests:');
    expect(server.seen.length).toBe(before);
  });
});
