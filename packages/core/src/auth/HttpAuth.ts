import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { ModelValidationError } from '../errors';
import type { JsonObject } from '../json';
import { isSecretRef, type SecretRef } from '../redaction/SecretRef';

/** How a client authenticates at the token endpoint. */
export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none' | 'private_key_jwt';

/** A static bearer token sent as `Authorization: Bearer ...` with every request. */
export interface BearerAuth {
  kind: 'bearer';
  token: string | SecretRef;
}

/** The MCP authorization flow (OAuth 2.1) run through the SDK's `auth()`. */
export interface OAuthAuth {
  kind: 'oauth';
  /** Default `authorization_code` (with PKCE). */
  grant?: 'authorization_code' | 'client_credentials';
  /** A pre-registered client id (skips registration). */
  clientId?: string;
  /** The pre-registered client's secret. */
  clientSecret?: string | SecretRef;
  /** An https URL of a client ID metadata document, used when the authorization server supports them. */
  clientMetadataUrl?: string;
  /** Metadata sent in dynamic client registration (redirect URI and name have defaults). */
  clientMetadata?: Partial<OAuthClientMetadata>;
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /** PEM private key for `private_key_jwt`. */
  privateKey?: string | SecretRef;
  /** JWS algorithm for `private_key_jwt`; default from the key (ES256, ES384, RS256, EdDSA). */
  signingAlgorithm?: string;
  /** Scopes to ask for when neither `WWW-Authenticate` nor the resource metadata name any. */
  scope?: string;
  /**
   * Completes the authorization step yourself (a browser, a test driver): receives the
   * authorization URL and returns the redirect URL it ended at (or the bare code). Without it the
   * URL is fetched headlessly and the code read from the `Location` header.
   */
  authorize?: (authorizationUrl: URL) => Promise<URL | string>;
}

/** Any `OAuthClientProvider` of the SDK, used as it is. */
export interface ProviderAuth {
  kind: 'provider';
  provider: OAuthClientProvider;
}

/** How an `HTTPServer` authenticates (contract §17). */
export type HttpAuth = BearerAuth | OAuthAuth | ProviderAuth;

const METHODS: ReadonlySet<string> = new Set(['client_secret_basic', 'client_secret_post', 'none', 'private_key_jwt']);
const OAUTH_KEYS: ReadonlySet<string> = new Set([
  'kind',
  'grant',
  'clientId',
  'clientSecret',
  'clientMetadataUrl',
  'clientMetadata',
  'tokenEndpointAuthMethod',
  'privateKey',
  'signingAlgorithm',
  'scope',
  'authorize',
]);

function isStringOrSecret(value: unknown): value is string | SecretRef {
  return isSecretRef(value) || (typeof value === 'string' && value !== '');
}

function fail(where: string, problem: string): never {
  throw new ModelValidationError(`${where} auth ${problem}`);
}

function validateOAuth(auth: OAuthAuth, where: string): OAuthAuth {
  for (const key of Object.keys(auth)) {
    if (!OAUTH_KEYS.has(key))
      fail(
        where,
        `has an unknown option ${JSON.stringify(key)}: the oauth options are listed in @sf-m3/core's docs/auth.md`,
      );
  }
  const grant = auth.grant ?? 'authorization_code';
  if (grant !== 'authorization_code' && grant !== 'client_credentials') {
    fail(where, `grant must be 'authorization_code' or 'client_credentials', got ${JSON.stringify(auth.grant)}`);
  }
  if (auth.clientId !== undefined && (typeof auth.clientId !== 'string' || auth.clientId.trim() === '')) {
    fail(where, 'clientId must be a non-empty string');
  }
  if (auth.clientSecret !== undefined && !isStringOrSecret(auth.clientSecret)) {
    fail(where, "clientSecret must be a non-empty string or secretFromEnv('NAME')");
  }
  if (auth.privateKey !== undefined && !isStringOrSecret(auth.privateKey)) {
    fail(where, "privateKey must be a PEM string or secretFromEnv('NAME')");
  }
  const method = auth.tokenEndpointAuthMethod;
  if (method !== undefined && !METHODS.has(method)) {
    fail(where, `tokenEndpointAuthMethod must be one of ${[...METHODS].join(', ')}, got ${JSON.stringify(method)}`);
  }
  if (method === 'private_key_jwt' && auth.privateKey === undefined) {
    fail(where, "tokenEndpointAuthMethod 'private_key_jwt' needs privateKey (a PEM string or secretFromEnv)");
  }
  if (auth.privateKey !== undefined && auth.clientId === undefined) {
    fail(where, 'privateKey (private_key_jwt) needs the pre-registered clientId whose public key the server holds');
  }
  if (auth.privateKey !== undefined && method !== undefined && method !== 'private_key_jwt') {
    fail(where, `privateKey is only used with tokenEndpointAuthMethod 'private_key_jwt', not ${method}`);
  }
  if ((method === 'client_secret_basic' || method === 'client_secret_post') && auth.clientId !== undefined) {
    if (auth.clientSecret === undefined)
      fail(where, `tokenEndpointAuthMethod '${method}' with a clientId needs clientSecret`);
  }
  if (auth.clientSecret !== undefined && auth.clientId === undefined) {
    fail(where, 'clientSecret needs the clientId it was issued with');
  }
  if (grant === 'client_credentials') {
    if (auth.clientId === undefined) fail(where, "grant 'client_credentials' needs a pre-registered clientId");
    if (auth.clientSecret === undefined && auth.privateKey === undefined) {
      fail(where, "grant 'client_credentials' needs clientSecret or privateKey (private_key_jwt)");
    }
    if (auth.authorize !== undefined) fail(where, "authorize is for grant 'authorization_code' only");
  }
  if (auth.clientMetadataUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(auth.clientMetadataUrl);
    } catch {
      url = undefined;
    }
    if (url === undefined || url.protocol !== 'https:' || url.pathname === '/') {
      fail(
        where,
        'clientMetadataUrl must be an https URL with a path, e.g. https://client.example/oauth/metadata.json',
      );
    }
  }
  if (auth.clientMetadata !== undefined && (typeof auth.clientMetadata !== 'object' || auth.clientMetadata === null)) {
    fail(where, 'clientMetadata must be an object of OAuth client metadata');
  }
  if (auth.scope !== undefined && typeof auth.scope !== 'string') fail(where, 'scope must be a space-separated string');
  if (auth.signingAlgorithm !== undefined && typeof auth.signingAlgorithm !== 'string') {
    fail(where, "signingAlgorithm must be a JWS algorithm name such as 'ES256'");
  }
  if (auth.authorize !== undefined && typeof auth.authorize !== 'function') {
    fail(where, 'authorize must be a function (authorizationUrl: URL) => Promise<URL | string>');
  }
  return Object.freeze({
    ...auth,
    ...(auth.clientMetadata !== undefined && { clientMetadata: { ...auth.clientMetadata } }),
  });
}

/** Checks an `HTTPServer`'s `auth` option and returns a frozen copy; messages never hold a value. */
export function validateHttpAuth(auth: unknown, where: string): HttpAuth | undefined {
  if (auth === undefined) return undefined;
  if (typeof auth !== 'object' || auth === null) fail(where, "must be { kind: 'bearer' | 'oauth' | 'provider', ... }");
  const candidate = auth as { kind?: unknown };
  switch (candidate.kind) {
    case 'bearer': {
      const { token } = auth as BearerAuth;
      if (!isStringOrSecret(token)) fail(where, "bearer needs token: a non-empty string or secretFromEnv('NAME')");
      if (typeof token === 'string' && /[\r\n]/.test(token)) fail(where, 'bearer token must be a single line');
      return Object.freeze({ kind: 'bearer', token });
    }
    case 'oauth':
      return validateOAuth(auth as OAuthAuth, where);
    case 'provider': {
      const { provider } = auth as ProviderAuth;
      if (typeof provider !== 'object' || provider === null || typeof provider.tokens !== 'function') {
        fail(where, 'provider needs an OAuthClientProvider (an object with tokens(), saveTokens(), ...)');
      }
      return Object.freeze({ kind: 'provider', provider });
    }
    default:
      return fail(where, `kind must be 'bearer', 'oauth' or 'provider', got ${JSON.stringify(candidate.kind)}`);
  }
}

/** The JSON form of an auth option: its shape and secret references by name, never a value. */
export function describeHttpAuth(auth: HttpAuth): JsonObject {
  const secret = (value: string | SecretRef | undefined): JsonObject | string | null =>
    value === undefined ? null : isSecretRef(value) ? { kind: 'secret_ref', env: value.env } : '[REDACTED]';
  switch (auth.kind) {
    case 'bearer':
      return { kind: 'bearer', token: secret(auth.token) };
    case 'provider':
      return { kind: 'provider' };
    case 'oauth':
      return {
        kind: 'oauth',
        grant: auth.grant ?? 'authorization_code',
        clientId: auth.clientId ?? null,
        clientSecret: secret(auth.clientSecret),
        clientMetadataUrl: auth.clientMetadataUrl ?? null,
        tokenEndpointAuthMethod: auth.tokenEndpointAuthMethod ?? null,
        privateKey: secret(auth.privateKey),
        scope: auth.scope ?? null,
        authorize: auth.authorize !== undefined,
      };
  }
}
