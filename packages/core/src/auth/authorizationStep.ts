import { AuthenticationError, AuthenticationStep } from '../errors';
import type { AuthFlowContext } from './AuthFlowContext';
import { checkAuthEndpointTrust } from './authEndpointTrust';

const STEP = AuthenticationStep.AUTHORIZATION;

function failure(
  context: AuthFlowContext,
  reason: string,
  message: string,
  httpStatus: number | null,
): AuthenticationError {
  const error = new AuthenticationError(message, { httpStatus, wwwAuthenticate: null, step: STEP, reason });
  context.record('auth.failed', { step: STEP, reason, ...(httpStatus !== null && { httpStatus }) });
  return error;
}

/** The code (and checked state) carried by the redirect URL the authorization step ended at. */
function codeFromRedirect(context: AuthFlowContext, redirect: URL, expectedState: string, host: string): string {
  const denied = redirect.searchParams.get('error');
  if (denied !== null) {
    throw failure(
      context,
      'authorization_denied',
      `the authorization server at ${host} refused the authorization request (${denied.slice(0, 64)}): ` +
        'check the client, redirect URI and scopes it accepts',
      null,
    );
  }
  const code = redirect.searchParams.get('code');
  if (code === null || code === '') {
    throw failure(context, 'no_authorization_code', `the authorization redirect from ${host} carries no code`, null);
  }
  context.redactor.addCanary(code);
  const state = redirect.searchParams.get('state');
  if (expectedState !== '' && state !== null && state !== expectedState) {
    throw failure(context, 'state_mismatch', `the authorization redirect from ${host} carries a different state`, null);
  }
  return code;
}

/**
 * The headless authorization step: fetches the authorization URL without following the
 * redirect and reads the code from `Location` — what a test authorization server that approves
 * at once answers. Anything else (no redirect, an `error`, no code, a changed state) is an
 * `AuthenticationError` with `step: 'authorization'` saying to pass `authorize`.
 */
export async function headlessAuthorization(
  context: AuthFlowContext,
  authorizationUrl: URL,
  expectedState: string,
  base: typeof fetch = fetch,
): Promise<string> {
  await checkAuthEndpointTrust(authorizationUrl, context.trust, STEP);
  let response: Response;
  try {
    response = await base(authorizationUrl, { redirect: 'manual' });
  } catch {
    context.record('auth.request', { step: STEP, host: authorizationUrl.host, method: 'GET', outcome: 'unreachable' });
    throw failure(
      context,
      'unreachable',
      `the authorization endpoint at ${authorizationUrl.host} is unreachable`,
      null,
    );
  }
  await response.body?.cancel().catch(() => undefined);
  const location = response.headers.get('location');
  const status = response.status;
  context.record('auth.request', {
    step: STEP,
    host: authorizationUrl.host,
    method: 'GET',
    httpStatus: status,
    outcome: location !== null && status >= 300 && status < 400 ? 'ok' : 'no_redirect',
  });
  if (location === null || status < 300 || status >= 400) {
    throw failure(
      context,
      'interactive_authorization_required',
      `the authorization endpoint at ${authorizationUrl.host} answered ${status} without redirecting back: it wants a ` +
        'user; pass auth.authorize(authorizationUrl) to complete the authorization yourself',
      status,
    );
  }
  return codeFromRedirect(context, new URL(location, authorizationUrl), expectedState, authorizationUrl.host);
}

/** The authorization step through the user's `authorize` callback: its redirect URL or bare code. */
export async function callbackAuthorization(
  context: AuthFlowContext,
  authorize: (authorizationUrl: URL) => Promise<URL | string>,
  authorizationUrl: URL,
  expectedState: string,
): Promise<string> {
  await checkAuthEndpointTrust(authorizationUrl, context.trust, STEP);
  context.record('auth.request', { step: STEP, host: authorizationUrl.host, method: 'callback', outcome: 'started' });
  const answer = await authorize(new URL(authorizationUrl.href));
  if (answer instanceof URL) return codeFromRedirect(context, answer, expectedState, authorizationUrl.host);
  if (typeof answer !== 'string' || answer === '') {
    throw failure(context, 'no_authorization_code', 'auth.authorize returned no redirect URL or code', null);
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(answer)) {
    return codeFromRedirect(context, new URL(answer), expectedState, authorizationUrl.host);
  }
  context.redactor.addCanary(answer);
  return answer;
}
