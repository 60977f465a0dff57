import { createHash, randomBytes } from 'node:crypto';
import type { JsonObject } from '../../json';
import { authenticateClient } from './clientAuthentication';
import type { TestOAuthClient, TestTokenGrant } from './testOAuthTypes';

/** A code issued by the authorization endpoint, waiting for its token request. */
export interface IssuedCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: string[];
  resource: string | undefined;
}

/** The state the token endpoint reads and writes (owned by `TestAuthorizationServer`). */
export interface TokenState {
  issuer: string;
  tokenEndpoint: string;
  codes: Map<string, IssuedCode>;
  accessTokens: Map<string, TestTokenGrant>;
  refreshTokens: Map<string, Omit<TestTokenGrant, 'expiresAt'>>;
  refreshTokensEnabled: boolean;
  accessTokenTtlSeconds: number;
  lookup(clientId: string): TestOAuthClient | undefined;
}

/** The token endpoint's answer: status and JSON body, and what the request log may say. */
export interface TokenAnswer {
  status: number;
  body: JsonObject;
  log: { grantType?: string; clientId?: string; clientAuthMethod?: string; scope?: string; resource?: string };
}

function oauthError(error: string, description: string, status = 400): Omit<TokenAnswer, 'log'> {
  return { status, body: { error, error_description: description } };
}

function issue(state: TokenState, grant: Omit<TestTokenGrant, 'expiresAt'>, refreshable: boolean): JsonObject {
  const accessToken = `at-${randomBytes(24).toString('base64url')}`;
  state.accessTokens.set(accessToken, { ...grant, expiresAt: Date.now() + state.accessTokenTtlSeconds * 1000 });
  const body: JsonObject = {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: state.accessTokenTtlSeconds,
    ...(grant.scopes.length > 0 && { scope: grant.scopes.join(' ') }),
  };
  if (refreshable && state.refreshTokensEnabled) {
    const refreshToken = `rt-${randomBytes(24).toString('base64url')}`;
    state.refreshTokens.set(refreshToken, grant);
    body.refresh_token = refreshToken;
  }
  return body;
}

function scopesOf(form: URLSearchParams): string[] {
  return (form.get('scope') ?? '').split(/\s+/).filter((scope) => scope !== '');
}

/**
 * Answers one token request: authorization_code (PKCE S256, redirect URI and resource checked),
 * refresh_token (rotated) or client_credentials, after authenticating the client by its method.
 */
export function answerTokenRequest(
  state: TokenState,
  form: URLSearchParams,
  authorization: string | undefined,
): TokenAnswer {
  const grantType = form.get('grant_type') ?? '';
  const resource = form.get('resource') ?? undefined;
  const client = authenticateClient(form, authorization, state.lookup, [state.issuer, state.tokenEndpoint]);
  const log: TokenAnswer['log'] = {
    grantType,
    ...(resource !== undefined && { resource }),
    ...(form.has('scope') && { scope: form.get('scope') ?? '' }),
  };
  if (!client.ok) return { ...oauthError(client.error, client.description, 401), log };
  log.clientId = client.clientId;
  log.clientAuthMethod = client.method;
  if (grantType === 'authorization_code') {
    const code = state.codes.get(form.get('code') ?? '');
    state.codes.delete(form.get('code') ?? '');
    if (code === undefined || code.clientId !== client.clientId)
      return { ...oauthError('invalid_grant', 'unknown or used code'), log };
    const verifier = form.get('code_verifier') ?? '';
    if (createHash('sha256').update(verifier).digest('base64url') !== code.codeChallenge) {
      return { ...oauthError('invalid_grant', 'PKCE verification failed'), log };
    }
    if (form.get('redirect_uri') !== code.redirectUri)
      return { ...oauthError('invalid_grant', 'redirect_uri differs'), log };
    if (resource !== code.resource)
      return { ...oauthError('invalid_target', 'resource differs from the authorization request'), log };
    log.scope = code.scopes.join(' ');
    return { status: 200, body: issue(state, { clientId: client.clientId, scopes: code.scopes, resource }, true), log };
  }
  if (grantType === 'refresh_token') {
    const refresh = state.refreshTokens.get(form.get('refresh_token') ?? '');
    if (refresh === undefined || refresh.clientId !== client.clientId) {
      return { ...oauthError('invalid_grant', 'unknown refresh token'), log };
    }
    state.refreshTokens.delete(form.get('refresh_token') ?? '');
    return { status: 200, body: issue(state, { ...refresh, resource: resource ?? refresh.resource }, true), log };
  }
  if (grantType === 'client_credentials') {
    if (client.method === 'none') {
      return { ...oauthError('unauthorized_client', 'a public client cannot use client_credentials'), log };
    }
    return {
      status: 200,
      body: issue(state, { clientId: client.clientId, scopes: scopesOf(form), resource }, false),
      log,
    };
  }
  return { ...oauthError('unsupported_grant_type', `grant_type ${grantType.slice(0, 64)} is not supported`), log };
}
