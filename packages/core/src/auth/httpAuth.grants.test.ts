import { generateKeyPairSync } from 'node:crypto';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { MCPTestKit } from '../kit/MCPTestKit';
import { secretFromEnv } from '../redaction/SecretRef';
import { HTTPServer } from '../servers/HTTPServer';
import { startOAuthFixture, type OAuthFixture } from './oauthFixture.testkit';
import type { HttpAuth } from './HttpAuth';

let kit: MCPTestKit;
let fixture: OAuthFixture | undefined;
beforeEach(() => {
  kit = new MCPTestKit();
});
afterEach(async () => {
  await kit.close();
  await fixture?.close();
  fixture = undefined;
});

/** Connects with `auth`, lists tools and calls one; returns the stored trace as text. */
async function connectAndCall(auth: HttpAuth, tool = 'echo'): Promise<string> {
  const server = new HTTPServer({ name: 'notes', url: fixture!.url, auth });
  const client = await kit.direct(server).connect();
  expect((await client.listAllTools()).map((t) => t.name)).toEqual(['echo', 'write_note']);
  const result = await client.callTool(tool, tool === 'echo' ? { text: 'hi' } : { note: 'n' });
  expect(result.isError).toBe(false);
  await client.close();
  const trace = JSON.stringify(await kit.getTrace(client.executionId));
  for (const secret of fixture!.as.issuedSecrets()) expect(trace).not.toContain(secret);
  return trace;
}

function ecKeyPair(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

describe('HTTPServer({ auth }) against the test authorization server', () => {
  test('authorization code with PKCE, dynamic registration, headless: resource indicator and auth.* events', async () => {
    fixture = await startOAuthFixture({ scopesSupported: ['notes:read'] }, { scopes: ['notes:read'] });
    const trace = await connectAndCall({ kind: 'oauth' });
    const steps = fixture.as.requests.map((r) => r.step);
    expect(steps).toEqual(expect.arrayContaining(['metadata', 'registration', 'authorization', 'token']));
    const token = fixture.as.requests.find((r) => r.step === 'token')!;
    expect(token).toMatchObject({ grantType: 'authorization_code', resource: fixture.url, status: 200 });
    expect(fixture.as.requests.find((r) => r.step === 'authorization')).toMatchObject({ scope: 'notes:read' });
    for (const kind of ['auth.challenge', 'auth.request', 'auth.completed'])
      expect(trace).toContain(`"kind":"${kind}"`);
    expect(trace).toContain('"step":"client_registration"');
  });

  test('pre-registered confidential clients authenticate with client_secret_post and client_secret_basic', async () => {
    process.env.M3_TEST_OAUTH_SECRET = 'pre-registered-secret-7f3a9c';
    try {
      fixture = await startOAuthFixture({
        registration: false,
        clients: [
          {
            clientId: 'poster',
            clientSecret: 'pre-registered-secret-7f3a9c',
            tokenEndpointAuthMethod: 'client_secret_post',
          },
          { clientId: 'basic', clientSecret: 'pre-registered-secret-7f3a9c' },
        ],
      });
      const secret = secretFromEnv('M3_TEST_OAUTH_SECRET');
      const trace = await connectAndCall({
        kind: 'oauth',
        clientId: 'poster',
        clientSecret: secret,
        tokenEndpointAuthMethod: 'client_secret_post',
      });
      await connectAndCall({
        kind: 'oauth',
        clientId: 'basic',
        clientSecret: secret,
        tokenEndpointAuthMethod: 'client_secret_basic',
      });
      const methods = fixture.as.requests.filter((r) => r.step === 'token').map((r) => r.clientAuthMethod);
      expect(methods).toEqual(['client_secret_post', 'client_secret_basic']);
      expect(trace).not.toContain('pre-registered-secret-7f3a9c');
    } finally {
      delete process.env.M3_TEST_OAUTH_SECRET;
    }
  });

  test('a public pre-registered client (none) and a client ID metadata document', async () => {
    const documentUrl = 'https://client.example/oauth/sf-m3.json';
    fixture = await startOAuthFixture({
      registration: false,
      clients: [{ clientId: 'public-client', tokenEndpointAuthMethod: 'none' }],
      clientMetadataDocuments: { [documentUrl]: { client_name: 'sf-m3' } },
    });
    await connectAndCall({ kind: 'oauth', clientId: 'public-client', tokenEndpointAuthMethod: 'none' });
    await connectAndCall({ kind: 'oauth', clientMetadataUrl: documentUrl });
    const tokens = fixture.as.requests.filter((r) => r.step === 'token');
    expect(tokens.map((r) => [r.clientId, r.clientAuthMethod])).toEqual([
      ['public-client', 'none'],
      [documentUrl, 'none'],
    ]);
  });

  test('an authorize callback completes the authorization step', async () => {
    fixture = await startOAuthFixture();
    const seen: string[] = [];
    await connectAndCall({
      kind: 'oauth',
      authorize: async (authorizationUrl) => {
        seen.push(authorizationUrl.searchParams.get('code_challenge_method') ?? '');
        const answer = await fetch(authorizationUrl, { redirect: 'manual' });
        return answer.headers.get('location') ?? '';
      },
    });
    expect(seen).toEqual(['S256']);
  });

  test('private_key_jwt for a pre-registered client in the authorization code grant', async () => {
    const keys = ecKeyPair();
    fixture = await startOAuthFixture({
      registration: false,
      clients: [{ clientId: 'signer', publicKey: keys.publicKey, tokenEndpointAuthMethod: 'private_key_jwt' }],
    });
    const trace = await connectAndCall({
      kind: 'oauth',
      clientId: 'signer',
      tokenEndpointAuthMethod: 'private_key_jwt',
      privateKey: keys.privateKey,
    });
    expect(fixture.as.requests.find((r) => r.step === 'token')).toMatchObject({
      clientAuthMethod: 'private_key_jwt',
      status: 200,
    });
    expect(trace).not.toContain(keys.privateKey.split('\n')[1]);
  });

  test('client credentials with a secret (basic, post) and with private_key_jwt', async () => {
    const keys = ecKeyPair();
    fixture = await startOAuthFixture({
      clients: [
        { clientId: 'machine', clientSecret: 'machine-secret-9d2e1b' },
        { clientId: 'signed-machine', publicKey: keys.publicKey, tokenEndpointAuthMethod: 'private_key_jwt' },
      ],
    });
    await connectAndCall({
      kind: 'oauth',
      grant: 'client_credentials',
      clientId: 'machine',
      clientSecret: 'machine-secret-9d2e1b',
    });
    await connectAndCall({
      kind: 'oauth',
      grant: 'client_credentials',
      clientId: 'machine',
      clientSecret: 'machine-secret-9d2e1b',
      tokenEndpointAuthMethod: 'client_secret_post',
    });
    await connectAndCall({
      kind: 'oauth',
      grant: 'client_credentials',
      clientId: 'signed-machine',
      privateKey: keys.privateKey,
    });
    const tokens = fixture.as.requests.filter((r) => r.step === 'token');
    expect(tokens.map((r) => [r.grantType, r.clientAuthMethod, r.status])).toEqual([
      ['client_credentials', 'client_secret_basic', 200],
      ['client_credentials', 'client_secret_post', 200],
      ['client_credentials', 'private_key_jwt', 200],
    ]);
    expect(fixture.as.requests.some((r) => r.step === 'authorization')).toBe(false);
  });

  test('step-up on 403 insufficient_scope asks for the union of scopes, and an expired token is refreshed', async () => {
    fixture = await startOAuthFixture({}, { scopes: ['notes:read'], toolScopes: { write_note: ['notes:write'] } });
    const server = new HTTPServer({ name: 'notes', url: fixture.url, auth: { kind: 'oauth' } });
    const client = await kit.direct(server).connect();
    await client.callTool('echo', { text: 'a' });
    expect((await client.callTool('write_note', { note: 'x' })).isError).toBe(false);
    fixture.as.expireAccessTokens();
    expect((await client.callTool('echo', { text: 'b' })).isError).toBe(false);
    await client.close();
    const scopes = fixture.as.requests.filter((r) => r.step === 'authorization').map((r) => r.scope);
    expect(scopes).toEqual(['notes:read', 'notes:read notes:write']);
    expect(fixture.as.requests.filter((r) => r.step === 'token').map((r) => r.grantType)).toEqual([
      'authorization_code',
      'authorization_code',
      'refresh_token',
    ]);
    expect(fixture.mcp.statuses).toContain(403);
    const trace = JSON.stringify(await kit.getTrace(client.executionId));
    expect(trace).toContain('"stepUp":true');
    for (const secret of fixture.as.issuedSecrets()) expect(trace).not.toContain(secret);
  });

  test('a bearer token and any SDK OAuthClientProvider', async () => {
    fixture = await startOAuthFixture({ clients: [{ clientId: 'machine', clientSecret: 'machine-secret-9d2e1b' }] });
    const provider = new ClientCredentialsProvider({
      clientId: 'machine',
      clientSecret: 'machine-secret-9d2e1b',
      expectedIssuer: fixture.as.issuer,
    });
    await connectAndCall({ kind: 'provider', provider });
    const token = provider.tokens()!.access_token;
    const trace = await connectAndCall({ kind: 'bearer', token });
    expect(trace).not.toContain(token);
  });
});
