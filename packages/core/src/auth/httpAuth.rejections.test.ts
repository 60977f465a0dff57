import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthenticationError, EndpointTrustError, ModelValidationError, TransportError } from '../errors';
import { MCPTestKit } from '../kit/MCPTestKit';
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

/** Connects with `auth` and returns what `connect()` rejected with (failing when it connects). */
async function rejection(auth: HttpAuth | undefined): Promise<AuthenticationError | EndpointTrustError> {
  const server = new HTTPServer({ name: 'notes', url: fixture!.url, ...(auth !== undefined && { auth }) });
  const client = kit.direct(server);
  const error = await client.connect().then(
    () => {
      throw new Error('connect() resolved, but the server should have been refused');
    },
    (e: unknown) => e,
  );
  await client.close();
  const trace = JSON.stringify(await kit.getTrace(client.executionId));
  for (const secret of fixture!.as.issuedSecrets()) expect(trace).not.toContain(secret);
  expect(String((error as Error).message)).not.toMatch(/at-[\w-]{20}|rt-[\w-]{20}|code-[\w-]{10}/);
  return error as AuthenticationError | EndpointTrustError;
}

describe('auth rejections are AuthenticationErrors with the HTTP status', () => {
  test('no auth: the documented pattern asserts a 401 with its WWW-Authenticate', async () => {
    fixture = await startOAuthFixture({}, { scopes: ['notes:read'] });
    const connect = kit.direct(new HTTPServer({ name: 'notes', url: fixture.url })).connect();
    await expect(connect).rejects.toThrow(AuthenticationError);
    await expect(connect).rejects.toMatchObject({
      details: { httpStatus: 401, step: 'mcp_request', reason: 'unauthorized' },
    });
    const error = await rejection(undefined);
    expect(error).toBeInstanceOf(TransportError);
    expect(error.details.wwwAuthenticate).toContain('resource_metadata=');
    expect(error.details.wwwAuthenticate).toContain('scope="notes:read"');
  });

  test('a wrong bearer token and a wrong client secret', async () => {
    fixture = await startOAuthFixture({ clients: [{ clientId: 'machine', clientSecret: 'right-secret-4c1d' }] });
    const bearer = await rejection({ kind: 'bearer', token: 'not-a-valid-token-8e2f' });
    expect(bearer.details).toMatchObject({ httpStatus: 401, step: 'mcp_request' });
    expect(bearer.message).not.toContain('not-a-valid-token-8e2f');
    const secret = await rejection({
      kind: 'oauth',
      grant: 'client_credentials',
      clientId: 'machine',
      clientSecret: 'wrong-secret-77aa',
    });
    expect(secret).toBeInstanceOf(AuthenticationError);
    expect(secret.details).toMatchObject({ step: 'token', httpStatus: 401, reason: 'invalid_client' });
    expect(secret.message).not.toContain('wrong-secret-77aa');
  });

  test.each([
    ['redirect', 'redirect_refused', 307],
    ['malformed', 'malformed_token_response', 200],
    ['oversized', 'response_too_large', 200],
  ] as const)('a token endpoint answering %s is %s', async (fault, reason, httpStatus) => {
    fixture = await startOAuthFixture();
    fixture.as.script({ token: fault });
    const error = await rejection({ kind: 'oauth' });
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.details).toMatchObject({ step: 'token', reason, httpStatus });
  });

  test('authorization server metadata pointing its token endpoint to another host', async () => {
    fixture = await startOAuthFixture();
    fixture.as.script({ metadataForeignHost: true });
    const error = await rejection({ kind: 'oauth' });
    expect(error.details).toMatchObject({ step: 'authorization_server_metadata', reason: 'metadata_foreign_host' });
    expect(fixture.as.requests.some((r) => r.step === 'registration' || r.step === 'token')).toBe(false);
  });

  test('protected resource metadata naming another resource (resource indicator mismatch)', async () => {
    fixture = await startOAuthFixture({}, { resourceMetadata: { resource: 'http://127.0.0.1:1/other-server' } });
    const error = await rejection({ kind: 'oauth' });
    expect(error.details).toMatchObject({ step: 'protected_resource_metadata', reason: 'resource_mismatch' });
    expect(fixture.as.requests).toEqual([]);
  });

  test('an http authorization server on a non-loopback host is an EndpointTrustError', async () => {
    fixture = await startOAuthFixture({}, { resourceMetadata: { authorizationServers: ['http://auth.example.com/'] } });
    const error = await rejection({ kind: 'oauth' });
    expect(error).toBeInstanceOf(EndpointTrustError);
    expect(error.details).toMatchObject({ reason: 'insecure_authorization_endpoint', host: 'auth.example.com' });
    expect(error.message).toContain('https');
  });

  test('an authorization endpoint that wants a user, or denies', async () => {
    fixture = await startOAuthFixture();
    fixture.as.script({ authorization: 'login_page' });
    const login = await rejection({ kind: 'oauth' });
    expect(login.details).toMatchObject({
      step: 'authorization',
      reason: 'interactive_authorization_required',
      httpStatus: 200,
    });
    expect(login.message).toContain('auth.authorize');
    fixture.as.script({ authorization: 'deny' });
    const denied = await rejection({ kind: 'oauth' });
    expect(denied.details).toMatchObject({ step: 'authorization', reason: 'authorization_denied' });
  });

  test('a step-up whose token request fails ends after one 403, not in a loop', async () => {
    fixture = await startOAuthFixture({}, { toolScopes: { write_note: ['notes:admin'] } });
    const client = await kit
      .direct(new HTTPServer({ name: 'notes', url: fixture.url, auth: { kind: 'oauth' } }))
      .connect();
    fixture.as.script({ token: 'invalid_grant' });
    const error = await client.callTool('write_note', { note: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).details).toMatchObject({ step: 'token', reason: 'invalid_grant' });
    await client.close();
    expect(fixture.mcp.statuses.filter((s) => s === 403)).toHaveLength(1);
  });

  test('auth and the direct client bearerToken option are one too many', async () => {
    fixture = await startOAuthFixture();
    const server = new HTTPServer({ name: 'notes', url: fixture.url, auth: { kind: 'oauth' } });
    await expect(kit.direct(server, { bearerToken: 'other-token-1234' }).connect()).rejects.toThrow(/give one of them/);
  });

  test('bad auth options are ModelValidationErrors naming the option, never its value', () => {
    const make = (auth: unknown) => () =>
      new HTTPServer({ name: 's', url: 'http://127.0.0.1:1/mcp', auth: auth as HttpAuth });
    expect(make({ kind: 'magic' })).toThrow(ModelValidationError);
    expect(make({ kind: 'oauth', grant: 'client_credentials' })).toThrow(/needs a pre-registered clientId/);
    expect(make({ kind: 'oauth', clientSecret: 'lonely-secret-1234' })).toThrow(/clientSecret needs the clientId/);
    expect(make({ kind: 'oauth', tokenEndpointAuthMethod: 'private_key_jwt' })).toThrow(/needs privateKey/);
    expect(make({ kind: 'oauth', clientMetadataUrl: 'http://client.example/meta.json' })).toThrow(/https URL/);
    expect(make({ kind: 'bearer', token: '' })).toThrow(/bearer needs token/);
    expect(
      () =>
        new HTTPServer({
          name: 's',
          url: 'http://127.0.0.1:1/mcp',
          headers: { Authorization: 'Bearer x' },
          auth: { kind: 'bearer', token: 'y' },
        }),
    ).toThrow(/both auth and an Authorization header/);
    const json = JSON.stringify(
      new HTTPServer({ name: 's', url: 'http://127.0.0.1:1/mcp', auth: { kind: 'bearer', token: 'plain-token-5566' } }),
    );
    expect(json).not.toContain('plain-token-5566');
  });
});

describe('other HTTP failures carry details.httpStatus', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  test('a 500 from the MCP endpoint is a TransportError with httpStatus 500', async () => {
    server = createServer((_req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('boom'));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const error = await kit
      .direct(new HTTPServer({ name: 'broken', url }))
      .connect()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).not.toBeInstanceOf(AuthenticationError);
    expect((error as TransportError).details.httpStatus).toBe(500);
  });
});
