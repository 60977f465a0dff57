// The test authorization server refuses what a real one refuses, so the kit's tests that pass
// against it prove something: PKCE, single-use codes, redirect URIs, resource indicators, client
// authentication, refresh rotation.
import { createHash, randomBytes } from 'node:crypto';
import { TestAuthorizationServer } from './TestAuthorizationServer';

const as = new TestAuthorizationServer({
  clients: [
    { clientId: 'web', clientSecret: 'web-secret', redirectUris: ['http://localhost:1/cb'] },
    { clientId: 'public', tokenEndpointAuthMethod: 'none' },
  ],
});
beforeAll(() => as.start());
afterAll(() => as.close());

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function token(
  form: Record<string, string>,
  authorization?: string,
): Promise<{ status: number; body: Record<string, string> }> {
  const response = await fetch(`${as.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization && { authorization }) },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

async function authorize(verifier: string, extra: Record<string, string> = {}): Promise<URL> {
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: 'web',
    redirect_uri: 'http://localhost:1/cb',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: 'http://127.0.0.1:9/mcp',
    state: 's1',
    ...extra,
  });
  const response = await fetch(`${as.issuer}/authorize?${params}`, { redirect: 'manual' });
  return new URL(response.headers.get('location') ?? 'http://invalid/');
}

describe('TestAuthorizationServer', () => {
  test('authorization code: PKCE, one use, same redirect URI and resource; refresh rotates', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const redirect = await authorize(verifier);
    expect(redirect.searchParams.get('state')).toBe('s1');
    const code = redirect.searchParams.get('code') ?? '';
    const exchange = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: 'http://localhost:1/cb',
      resource: 'http://127.0.0.1:9/mcp',
    };
    expect((await token({ ...exchange, code_verifier: 'wrong' }, basic('web', 'web-secret'))).body.error).toBe(
      'invalid_grant',
    );
    const again = (await authorize(verifier)).searchParams.get('code') ?? '';
    const ok = await token({ ...exchange, code: again, code_verifier: verifier }, basic('web', 'web-secret'));
    expect(ok.status).toBe(200);
    expect(as.introspect(ok.body.access_token!)).toMatchObject({ clientId: 'web', resource: 'http://127.0.0.1:9/mcp' });
    expect(
      (await token({ ...exchange, code: again, code_verifier: verifier }, basic('web', 'web-secret'))).body.error,
    ).toBe('invalid_grant');
    const refreshed = await token(
      { grant_type: 'refresh_token', refresh_token: ok.body.refresh_token! },
      basic('web', 'web-secret'),
    );
    expect(refreshed.status).toBe(200);
    expect(
      (await token({ grant_type: 'refresh_token', refresh_token: ok.body.refresh_token! }, basic('web', 'web-secret')))
        .status,
    ).toBe(400);
    const third = (await authorize(verifier)).searchParams.get('code') ?? '';
    const otherResource = await token(
      { ...exchange, code: third, code_verifier: verifier, resource: 'http://127.0.0.1:9/other' },
      basic('web', 'web-secret'),
    );
    expect(otherResource.body.error).toBe('invalid_target');
  });

  test('client authentication and redirect URIs are checked', async () => {
    expect((await token({ grant_type: 'client_credentials' }, basic('web', 'nope'))).status).toBe(401);
    expect((await token({ grant_type: 'client_credentials', client_id: 'public' })).body.error).toBe(
      'unauthorized_client',
    );
    expect(
      (await token({ grant_type: 'client_credentials', client_id: 'web', client_secret: 'web-secret' })).status,
    ).toBe(200);
    const response = await fetch(
      `${as.issuer}/authorize?response_type=code&client_id=web&redirect_uri=http://localhost:2/evil`,
      {
        redirect: 'manual',
      },
    );
    expect(response.status).toBe(400);
    expect(as.requests.every((r) => !JSON.stringify(r).includes('web-secret'))).toBe(true);
  });
});
