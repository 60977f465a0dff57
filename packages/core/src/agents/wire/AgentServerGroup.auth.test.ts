// An OAuth-protected HTTP server behind the agent reverse proxy: the proxy runs the server's
// `auth` upstream (the agent connects without credentials and never sees a token), and a
// rejection it cannot resolve reaches the agent as an error and the trace as a diagnostic.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startOAuthFixture, type OAuthFixture } from '../../auth/oauthFixture.testkit';
import { HTTPServer } from '../../servers/HTTPServer';
import { connectAsAgent, setupGroup } from './wire.testkit';

let fixture: OAuthFixture;
beforeEach(async () => {
  fixture = await startOAuthFixture({ clients: [{ clientId: 'machine', clientSecret: 'proxy-secret-51c7e2' }] });
});
afterEach(() => fixture.close());

async function callThroughProxy(server: HTTPServer): Promise<{ text: string; trace: string }> {
  const { group, finish } = setupGroup([server]);
  const [descriptor] = await group.start(new AbortController().signal);
  let client: Client | undefined;
  let text: string;
  try {
    client = await connectAsAgent(descriptor!);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'via proxy' } });
    text = (result.content as Array<{ text: string }>)[0]!.text;
  } catch (error) {
    text = (error as Error).message;
  } finally {
    await client?.close();
    await group.close();
  }
  return { text, trace: JSON.stringify(finish().toJSON()) };
}

describe('AgentServerGroup over an OAuth-protected HTTP server', () => {
  test('the proxy gets the token with client credentials; the agent and the trace never hold it', async () => {
    const auth = {
      kind: 'oauth',
      grant: 'client_credentials',
      clientId: 'machine',
      clientSecret: 'proxy-secret-51c7e2',
    } as const;
    const { text, trace } = await callThroughProxy(new HTTPServer({ name: 'notes', url: fixture.url, auth }));
    expect(text).toBe('via proxy');
    expect(trace).toContain('"kind":"auth.completed"');
    for (const secret of fixture.as.issuedSecrets()) expect(trace).not.toContain(secret);
  });

  test('a server the proxy cannot authenticate to: the agent gets an error, the trace a diagnostic', async () => {
    const { text, trace } = await callThroughProxy(new HTTPServer({ name: 'notes', url: fixture.url }));
    expect(text).toMatch(/authentication failed/);
    expect(trace).toContain('authentication_failed');
  });
});
