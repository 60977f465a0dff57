import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonObject } from '../../json';
import { headersOf, parseJsonBody, readBody, sendJson } from '../fakeHttp';
import { answerTokenRequest, type IssuedCode, type TokenState } from './tokenEndpoint';
import type {
  TestAuthorizationFaults,
  TestAuthorizationRequest,
  TestAuthorizationServerOptions,
  TestOAuthClient,
  TestTokenGrant,
} from './testOAuthTypes';

const ALL_METHODS = ['client_secret_basic', 'client_secret_post', 'none', 'private_key_jwt'];

/**
 * A loopback OAuth 2.1 authorization server for tests (`sf-m3/testing`): RFC 8414 metadata,
 * dynamic registration, client ID metadata documents, an authorization endpoint that approves at
 * once (302 to the redirect URI with the code), and a token endpoint for authorization_code
 * (PKCE S256), refresh_token and client_credentials with every client authentication method.
 * Scriptable faults (`script`) exercise a client's bad-input paths. Pair it with
 * `ProtectedMcpServer`. Everything lives in memory; `close()` forgets it.
 */
export class TestAuthorizationServer {
  /** Every request answered, in order, without secrets. */
  readonly requests: TestAuthorizationRequest[] = [];
  private readonly options: TestAuthorizationServerOptions;
  private readonly clients = new Map<string, TestOAuthClient>();
  private readonly codes = new Map<string, IssuedCode>();
  private readonly accessTokens = new Map<string, TestTokenGrant>();
  private readonly refreshTokens = new Map<string, Omit<TestTokenGrant, 'expiresAt'>>();
  private faults: TestAuthorizationFaults = {};
  /** Tokens and codes ever issued (kept after use, for `issuedSecrets`). */
  private readonly issued = new Set<string>();
  private server: Server | undefined;
  private origin: string | undefined;

  constructor(options: TestAuthorizationServerOptions = {}) {
    this.options = options;
    for (const client of options.clients ?? []) this.clients.set(client.clientId, { ...client });
  }

  /** Starts listening on 127.0.0.1 (a free port); returns the issuer URL. */
  async start(): Promise<string> {
    if (this.origin !== undefined) return this.issuer;
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    this.server = server;
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.issuer;
  }

  /** The issuer (`http://127.0.0.1:<port>`); throws before `start()`. */
  get issuer(): string {
    if (this.origin === undefined)
      throw new Error('TestAuthorizationServer is not started: await server.start() first');
    return this.origin;
  }

  /** The scopes the server advertises (what `ProtectedMcpServer` lists in its resource metadata). */
  get scopesSupported(): string[] | undefined {
    return this.options.scopesSupported;
  }

  /** Sets the misbehaviour of the following requests (`script({})` clears it). */
  script(faults: TestAuthorizationFaults): void {
    this.faults = { ...faults };
  }

  /** What an access token grants, or undefined when it is unknown or expired. */
  introspect(accessToken: string): TestTokenGrant | undefined {
    const grant = this.accessTokens.get(accessToken);
    return grant !== undefined && grant.expiresAt > Date.now() ? grant : undefined;
  }

  /**
   * Every secret this server has handed out or holds (access and refresh tokens, codes, client
   * secrets), for leak checks: assert none of them appears in what your run stored or printed.
   */
  issuedSecrets(): string[] {
    const secrets = new Set<string>([...this.issued]);
    for (const client of this.clients.values()) if (client.clientSecret !== undefined) secrets.add(client.clientSecret);
    return [...secrets];
  }

  /** Expires every access token issued so far (a client must refresh or authorize again). */
  expireAccessTokens(): void {
    for (const grant of this.accessTokens.values()) grant.expiresAt = 0;
  }

  /** Stops listening and forgets every client, code and token; idempotent. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.codes.clear();
    this.accessTokens.clear();
    this.refreshTokens.clear();
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The RFC 8414 metadata document. */
  metadata(): JsonObject {
    const issuer = this.issuer;
    const endpointHost = this.faults.metadataForeignHost === true ? 'http://auth.elsewhere.example' : issuer;
    return {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${endpointHost}/token`,
      ...(this.options.registration !== false && { registration_endpoint: `${issuer}/register` }),
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: this.options.tokenEndpointAuthMethods ?? ALL_METHODS,
      token_endpoint_auth_signing_alg_values_supported: ['ES256', 'ES384', 'RS256', 'PS256', 'EdDSA'],
      ...(this.options.scopesSupported !== undefined && { scopes_supported: this.options.scopesSupported }),
      ...(this.options.clientMetadataDocuments !== undefined && { client_id_metadata_document_supported: true }),
    };
  }

  private lookup(clientId: string): TestOAuthClient | undefined {
    const known = this.clients.get(clientId);
    if (known !== undefined) return known;
    const document = this.options.clientMetadataDocuments?.[clientId];
    if (document === undefined) return undefined;
    return {
      clientId,
      tokenEndpointAuthMethod: 'none',
      ...(document.redirect_uris && { redirectUris: document.redirect_uris }),
    };
  }

  private log(entry: TestAuthorizationRequest): void {
    this.requests.push(entry);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.issuer);
    const method = req.method ?? 'GET';
    const path = url.pathname;
    if (
      method === 'GET' &&
      (path.startsWith('/.well-known/oauth-authorization-server') ||
        path.startsWith('/.well-known/openid-configuration'))
    ) {
      this.log({ step: 'metadata', status: 200 });
      return sendJson(res, 200, this.metadata());
    }
    if (method === 'POST' && path === '/register' && this.options.registration !== false)
      return this.register(req, res);
    if (method === 'GET' && path === '/authorize') return this.authorize(url, res);
    if (method === 'POST' && path === '/token') return this.token(req, res);
    sendJson(res, 404, { error: 'not_found' });
  }

  private async register(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = parseJsonBody(await readBody(req));
    if (typeof body !== 'object' || body === null || Array.isArray(body) || !Array.isArray(body.redirect_uris)) {
      this.log({ step: 'registration', status: 400 });
      return sendJson(res, 400, { error: 'invalid_client_metadata', error_description: 'redirect_uris is required' });
    }
    const requested = typeof body.token_endpoint_auth_method === 'string' ? body.token_endpoint_auth_method : undefined;
    const supported = this.options.tokenEndpointAuthMethods ?? ALL_METHODS;
    const method = requested ?? supported.find((m) => m !== 'private_key_jwt') ?? 'none';
    if (!supported.includes(method) || method === 'private_key_jwt') {
      this.log({ step: 'registration', status: 400 });
      return sendJson(res, 400, {
        error: 'invalid_client_metadata',
        error_description: `${method} is not supported here`,
      });
    }
    const clientId = `client-${randomBytes(8).toString('hex')}`;
    const secret = method === 'none' ? undefined : `cs-${randomBytes(24).toString('base64url')}`;
    const redirectUris = body.redirect_uris.map(String);
    this.clients.set(clientId, {
      clientId,
      tokenEndpointAuthMethod: method as TestOAuthClient['tokenEndpointAuthMethod'] & string,
      redirectUris,
      ...(secret !== undefined && { clientSecret: secret }),
    });
    this.log({ step: 'registration', clientId, clientAuthMethod: method, status: 201 });
    sendJson(res, 201, {
      ...body,
      client_id: clientId,
      client_id_issued_at: Math.floor(Date.now() / 1000),
      token_endpoint_auth_method: method,
      ...(secret !== undefined && { client_secret: secret, client_secret_expires_at: 0 }),
    });
  }

  private authorize(url: URL, res: ServerResponse): void {
    const params = url.searchParams;
    const clientId = params.get('client_id') ?? '';
    const client = this.lookup(clientId);
    const redirectUri = params.get('redirect_uri') ?? '';
    const scope = params.get('scope') ?? '';
    const resource = params.get('resource') ?? undefined;
    const entry = { step: 'authorization' as const, clientId, scope, ...(resource !== undefined && { resource }) };
    const loopbackRedirect = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?\//.test(redirectUri);
    const redirectOk =
      client?.redirectUris !== undefined ? client.redirectUris.includes(redirectUri) : loopbackRedirect;
    if (client === undefined || !redirectOk || params.get('response_type') !== 'code') {
      this.log({ ...entry, status: 400 });
      return sendJson(res, 400, {
        error: 'invalid_request',
        error_description: 'unknown client, redirect_uri or response_type',
      });
    }
    if (this.faults.authorization === 'login_page') {
      this.log({ ...entry, status: 200 });
      res.writeHead(200, { 'content-type': 'text/html' }).end('<form>log in</form>');
      return;
    }
    const target = new URL(redirectUri);
    const state = params.get('state');
    if (state !== null) target.searchParams.set('state', state);
    if (this.faults.authorization === 'deny' || params.get('code_challenge_method') !== 'S256') {
      target.searchParams.set('error', this.faults.authorization === 'deny' ? 'access_denied' : 'invalid_request');
    } else {
      const code = `code-${randomBytes(16).toString('base64url')}`;
      this.codes.set(code, {
        clientId,
        redirectUri,
        codeChallenge: params.get('code_challenge') ?? '',
        scopes: scope.split(/\s+/).filter((s) => s !== ''),
        resource,
      });
      this.issued.add(code);
      target.searchParams.set('code', code);
    }
    this.log({ ...entry, status: 302 });
    res.writeHead(302, { location: target.href }).end();
  }

  private async token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await readBody(req));
    const fault = this.faults.token;
    if (fault === 'redirect') {
      this.log({ step: 'token', status: 307 });
      res.writeHead(307, { location: `${this.issuer}/token-moved` }).end();
      return;
    }
    const state: TokenState = {
      issuer: this.issuer,
      tokenEndpoint: `${this.issuer}/token`,
      codes: this.codes,
      accessTokens: this.accessTokens,
      refreshTokens: this.refreshTokens,
      refreshTokensEnabled: this.options.refreshTokens !== false,
      accessTokenTtlSeconds: this.options.accessTokenTtlSeconds ?? 3600,
      lookup: (clientId) => this.lookup(clientId),
    };
    const answer =
      fault === 'invalid_grant'
        ? { status: 400, body: { error: 'invalid_grant', error_description: 'scripted refusal' }, log: {} }
        : answerTokenRequest(state, form, headersOf(req).authorization);
    this.log({ step: 'token', ...answer.log, status: answer.status });
    for (const field of ['access_token', 'refresh_token'] as const) {
      const value = answer.body[field];
      if (typeof value === 'string') this.issued.add(value);
    }
    if (fault === 'malformed' && answer.status === 200) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token": 42, "token_type": ');
      return;
    }
    if (fault === 'oversized' && answer.status === 200) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...answer.body, padding: 'x'.repeat(128 * 1024) }));
      return;
    }
    sendJson(res, answer.status, answer.body, { 'cache-control': 'no-store' });
  }
}
