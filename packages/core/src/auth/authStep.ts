import { AuthenticationStep } from '../errors';

/** Form parameters of OAuth requests whose values are credentials. */
export const CREDENTIAL_PARAMS = [
  'code',
  'code_verifier',
  'client_secret',
  'client_assertion',
  'refresh_token',
  'assertion',
  'subject_token',
  'password',
] as const;

/** The form body of a request, when it is one (token and refresh requests). */
export function formBody(body: unknown): URLSearchParams | undefined {
  if (body instanceof URLSearchParams) return body;
  if (typeof body === 'string' && /^[\w.~%+-]+=/.test(body) && !body.trimStart().startsWith('{')) {
    return new URLSearchParams(body);
  }
  return undefined;
}

/**
 * Which step of the MCP authorization flow a request to an authorization endpoint is, from its
 * URL, method and body: well-known metadata, registration (a JSON POST) or the token endpoint
 * (a form POST; `refresh` when its grant is `refresh_token`).
 */
export function classifyAuthStep(url: URL, method: string, body: unknown): AuthenticationStep {
  const path = url.pathname;
  if (path.includes('/.well-known/oauth-protected-resource')) return AuthenticationStep.PROTECTED_RESOURCE_METADATA;
  if (path.includes('/.well-known/oauth-authorization-server') || path.includes('/.well-known/openid-configuration')) {
    return AuthenticationStep.AUTHORIZATION_SERVER_METADATA;
  }
  if (method.toUpperCase() === 'POST') {
    const form = formBody(body);
    if (form?.has('grant_type') === true) {
      return form.get('grant_type') === 'refresh_token' ? AuthenticationStep.REFRESH : AuthenticationStep.TOKEN;
    }
    return AuthenticationStep.CLIENT_REGISTRATION;
  }
  return AuthenticationStep.AUTHORIZATION_SERVER_METADATA;
}
