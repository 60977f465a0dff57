// A suite connects to an OAuth-protected MCP server with each grant and asserts its rejections,
// through the real `m3 test` (contract §17); then every byte the run left — the SQLite database and its
// WAL, .m3/reports, stdout and stderr with debug logs on — is searched for every token, code and
// secret the test authorization server handed out, and for the client secrets: zero hits.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ProtectedMcpServer, TestAuthorizationServer } from '@sf-m3/core/testing';
import { z } from 'zod';
import { copyFixture, ensureBuilt, printedRunId, removeFixture, runM3Async, withStore } from '../cli.testkit';
import { filesUnder, searchCanaries } from '../faults/secrets.testkit';

jest.setTimeout(300_000);

function notesServer(): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool('write_note', { inputSchema: { note: z.string() } }, ({ note }) => ({
    content: [{ type: 'text', text: `saved ${note.length}` }],
  }));
  return server;
}

const CLIENT_SECRET = 'oauth-client-secret-3b9f0d2c7a';
const WRONG_SECRET = 'oauth-wrong-secret-8e1a4c6f20';

describe('m3 test against an OAuth-protected server', () => {
  const as = new TestAuthorizationServer({ clients: [{ clientId: 'machine', clientSecret: CLIENT_SECRET }] });
  let mcp: ProtectedMcpServer;
  let folder: string;
  beforeAll(async () => {
    ensureBuilt();
    await as.start();
    mcp = new ProtectedMcpServer({
      authorizationServer: as,
      factory: notesServer,
      toolScopes: { write_note: ['notes:write'] },
    });
    await mcp.start();
    folder = copyFixture('auth-oauth-project');
  });
  afterAll(async () => {
    await mcp?.close();
    await as.close();
    removeFixture(folder);
  });

  test('each grant connects, rejections are asserted, and no token or secret is stored or printed', async () => {
    const run = await runM3Async(
      ['test', 'tests/oauth.test.js'],
      folder,
      {
        OAUTH_MCP_URL: mcp.url,
        OAUTH_CLIENT_SECRET: CLIENT_SECRET,
        OAUTH_WRONG_SECRET: WRONG_SECRET,
        M3_LOG_LEVEL: 'debug',
      },
      240_000,
    );
    expect(run.status).toBe(1);
    const runId = printedRunId(run.stdout);
    const attempts = await withStore(folder, (store) => store.listAttempts({ runId }));
    const outcomes = Object.fromEntries(attempts.map((a) => [a.fullName.replace(/^oauth /, ''), a.outcome]));
    expect(outcomes).toEqual({
      'authorization code with PKCE (dynamic registration, headless)': 'passed',
      'client credentials with a pre-registered secret': 'passed',
      'the server rejects unauthenticated calls': 'passed',
      'a wrong secret fails this test with the authentication error': 'failed',
    });
    const failure = attempts.find((a) => a.outcome === 'failed')?.failureMessage ?? '';
    expect(failure).toContain('AuthenticationError');
    expect(failure).toContain('invalid_client');
    // The flows really ran: a step-up, both grants, and the refused secret.
    expect(mcp.statuses).toContain(403);
    const grants = as.requests.filter((r) => r.step === 'token').map((r) => `${r.grantType}:${r.status}`);
    expect(grants).toEqual(
      expect.arrayContaining(['authorization_code:200', 'client_credentials:200', 'client_credentials:401']),
    );

    const secrets: Record<string, string> = { clientSecret: CLIENT_SECRET, wrongSecret: WRONG_SECRET };
    as.issuedSecrets().forEach((secret, index) => (secrets[`issued${index}`] = secret));
    expect(Object.keys(secrets).length).toBeGreaterThan(6);
    const sources = [
      { where: 'm3 test stdout', bytes: run.stdout },
      { where: 'm3 test stderr (debug logs)', bytes: run.stderr },
      ...filesUnder(join(folder, '.m3')).map((file) => ({ where: file.slice(folder.length + 1), file })),
    ];
    expect(readFileSync(join(folder, '.m3', 'executions.sqlite')).length).toBeGreaterThan(0);
    const hits = searchCanaries(secrets, sources);
    process.stdout.write(
      `oauth secrets: ${Object.keys(secrets).length} secrets, ${sources.length} places, ${hits.length} hits\n`,
    );
    expect(hits).toEqual([]);
  });
});
