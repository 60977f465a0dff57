import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AuthenticationError, AuthenticationStep } from '../errors';
import { REDACTED } from '../redaction/Redactor';
import type { AuthFlowContext } from './AuthFlowContext';
import type { OAuthSession } from './OAuthSession';

const HEADER_CHARS = 512;

function rejection(context: AuthFlowContext, response: Response, reason: string, hint: string): AuthenticationError {
  const header = response.headers.get('www-authenticate');
  // Canaries only: the scheme rule of `redactText` would take `Bearer resource_metadata=...` for a token.
  let wwwAuthenticate = header === null ? null : header.slice(0, HEADER_CHARS);
  for (const canary of context.redactor.canaryValues())
    wwwAuthenticate = wwwAuthenticate?.split(canary).join(REDACTED) ?? null;
  const endpoint = `${context.serverUrl.host}${context.serverUrl.pathname}`;
  return new AuthenticationError(`HTTP MCP endpoint ${endpoint} answered ${response.status} (${reason}): ${hint}`, {
    httpStatus: response.status,
    wwwAuthenticate,
    step: AuthenticationStep.MCP_REQUEST,
    reason,
  });
}

/**
 * Wraps the MCP endpoint's fetch with authentication: sends the session's access token, and on a
 * 401 (or a 403 `insufficient_scope`, step-up) runs the authorization flow once and retries the
 * request. A rejection auth cannot resolve — no auth configured, a 403 for another reason, or a
 * second rejection right after authorizing — is an `AuthenticationError` with the status and the
 * redacted `WWW-Authenticate`, thrown through the SDK transport to the operation.
 */
export function authenticatedFetch(
  base: FetchLike,
  context: AuthFlowContext,
  session: OAuthSession | undefined,
): FetchLike {
  return async (url, init) => {
    const send = async (): Promise<Response> => {
      const token = await session?.accessToken();
      if (token === undefined) return base(url, init);
      const headers = new Headers(init?.headers);
      headers.set('Authorization', `Bearer ${token}`);
      return base(url, { ...init, headers });
    };
    let response = await send();
    let authorized = false;
    while (response.status === 401 || response.status === 403) {
      const { resourceMetadataUrl, scope, error } = extractWWWAuthenticateParams(response);
      const stepUp = response.status === 403 && error === 'insufficient_scope';
      context.record('auth.challenge', {
        host: context.serverUrl.host,
        httpStatus: response.status,
        ...(error !== undefined && { error: error.slice(0, 64) }),
        ...(scope !== undefined && { scope: scope.slice(0, 256) }),
        resourceMetadata: resourceMetadataUrl !== undefined,
      });
      await response.body?.cancel().catch(() => undefined);
      const reason = stepUp ? 'insufficient_scope' : response.status === 401 ? 'unauthorized' : 'forbidden';
      if (session === undefined) {
        throw rejection(
          context,
          response,
          reason,
          response.status === 401
            ? "the server needs authentication: give the HTTPServer auth: { kind: 'oauth' } or a bearer token"
            : 'the credentials sent are not allowed this request',
        );
      }
      if (authorized) {
        throw rejection(context, response, reason, 'the server still rejects the request right after authorizing');
      }
      if (response.status === 403 && !stepUp) {
        throw rejection(context, response, reason, 'the token is valid but not allowed this request');
      }
      await session.authorize({
        ...(resourceMetadataUrl !== undefined && { resourceMetadataUrl }),
        ...(scope !== undefined && { scope }),
        stepUp,
      });
      authorized = true;
      response = await send();
    }
    return response;
  };
}
