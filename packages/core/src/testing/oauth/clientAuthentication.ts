import { createPublicKey, timingSafeEqual, verify } from 'node:crypto';
import type { TestOAuthClient } from './testOAuthTypes';

/** The outcome of authenticating a client at the token endpoint. */
export type ClientAuthResult =
  | { ok: true; clientId: string; method: string }
  | { ok: false; error: 'invalid_client' | 'invalid_request'; description: string };

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function decodeSegment(segment: string | undefined): Record<string, unknown> | undefined {
  if (segment === undefined) return undefined;
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Verifies a private_key_jwt client assertion (ES256/384/512, RS256, PS256, EdDSA) with the client's key. */
export function verifyClientAssertion(
  assertion: string,
  client: TestOAuthClient,
  audiences: string[],
): string | undefined {
  if (client.publicKey === undefined) return 'the client has no public key registered';
  const [head, body, signature] = assertion.split('.');
  const header = decodeSegment(head);
  const claims = decodeSegment(body);
  if (header === undefined || claims === undefined || signature === undefined) return 'the assertion is not a JWT';
  const alg = String(header.alg);
  const key = createPublicKey(client.publicKey);
  const data = Buffer.from(`${head}.${body}`);
  const sig = Buffer.from(signature, 'base64url');
  const hash = /^(?:ES|RS|PS)(256|384|512)$/.exec(alg)?.[1];
  let valid: boolean;
  if (alg === 'EdDSA') valid = verify(null, data, key, sig);
  else if (hash === undefined) return `unsupported alg ${alg}`;
  else if (alg.startsWith('ES')) valid = verify(`sha${hash}`, data, { key, dsaEncoding: 'ieee-p1363' }, sig);
  else if (alg.startsWith('PS'))
    valid = verify(`sha${hash}`, data, { key, padding: 6, saltLength: Number(hash) / 8 }, sig);
  else valid = verify(`sha${hash}`, data, key, sig);
  if (!valid) return 'the assertion signature does not verify';
  if (claims.iss !== client.clientId || claims.sub !== client.clientId) return 'iss and sub must be the client id';
  const aud = Array.isArray(claims.aud) ? claims.aud.map(String) : [String(claims.aud)];
  if (!aud.some((value) => audiences.includes(value))) return 'aud must be the issuer or the token endpoint';
  if (typeof claims.exp !== 'number' || claims.exp * 1000 < Date.now()) return 'the assertion has expired';
  return undefined;
}

/**
 * Authenticates the client of a token request by the method it used (Basic header, form
 * secret, JWT assertion, or none), checking that the method is the client's own.
 */
export function authenticateClient(
  form: URLSearchParams,
  authorization: string | undefined,
  lookup: (clientId: string) => TestOAuthClient | undefined,
  audiences: string[],
): ClientAuthResult {
  let clientId: string | undefined;
  let method: string;
  let secret: string | undefined;
  if (authorization?.toLowerCase().startsWith('basic ') === true) {
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    clientId = decodeURIComponent(decoded.slice(0, colon));
    secret = decodeURIComponent(decoded.slice(colon + 1));
    method = 'client_secret_basic';
  } else if (form.get('client_assertion_type') === JWT_BEARER) {
    const assertion = form.get('client_assertion') ?? '';
    clientId = form.get('client_id') ?? String(decodeSegment(assertion.split('.')[1])?.sub ?? '');
    method = 'private_key_jwt';
    const client = lookup(clientId);
    if (client === undefined) return { ok: false, error: 'invalid_client', description: 'unknown client' };
    const problem = verifyClientAssertion(assertion, client, audiences);
    if (problem !== undefined) return { ok: false, error: 'invalid_client', description: problem };
  } else if (form.has('client_secret')) {
    clientId = form.get('client_id') ?? undefined;
    secret = form.get('client_secret') ?? undefined;
    method = 'client_secret_post';
  } else {
    clientId = form.get('client_id') ?? undefined;
    method = 'none';
  }
  if (clientId === undefined || clientId === '') {
    return { ok: false, error: 'invalid_request', description: 'no client_id' };
  }
  const client = lookup(clientId);
  if (client === undefined) return { ok: false, error: 'invalid_client', description: 'unknown client' };
  const expected =
    client.tokenEndpointAuthMethod ?? (client.clientSecret !== undefined ? 'client_secret_basic' : 'none');
  const secretMethods = ['client_secret_basic', 'client_secret_post'];
  const methodOk = method === expected || (secretMethods.includes(method) && secretMethods.includes(expected));
  if (!methodOk) {
    return {
      ok: false,
      error: 'invalid_client',
      description: `the client authenticates with ${expected}, not ${method}`,
    };
  }
  if (secretMethods.includes(method) && (secret === undefined || !sameSecret(secret, client.clientSecret ?? ''))) {
    return { ok: false, error: 'invalid_client', description: 'wrong client secret' };
  }
  return { ok: true, clientId, method };
}
