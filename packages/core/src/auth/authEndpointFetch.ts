import { checkResourceAllowed, resourceUrlFromServerUrl } from '@modelcontextprotocol/sdk/shared/auth-utils.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AuthenticationError, AuthenticationStep, EndpointTrustError, TransportConnectionError } from '../errors';
import { addCredentialCanary } from '../servers/resolveConfiguredValues';
import { checkAuthEndpointTrust } from './authEndpointTrust';
import { MAX_AUTH_RESPONSE_BYTES, type AuthFlowContext } from './AuthFlowContext';
import { CREDENTIAL_PARAMS, classifyAuthStep, formBody } from './authStep';
import { readBounded } from './readBounded';

const TOKEN_FIELDS = ['access_token', 'refresh_token', 'id_token'] as const;
const REGISTRATION_SECRETS = ['client_secret', 'registration_access_token'] as const;
const ENDPOINT_FIELDS = ['authorization_endpoint', 'token_endpoint', 'registration_endpoint'] as const;

function refuse(context: AuthFlowContext, error: AuthenticationError | EndpointTrustError): never {
  context.refusal ??= error;
  context.record('auth.failed', {
    step: String(error.details.step),
    reason: String(error.details.reason),
    ...(typeof error.details.httpStatus === 'number' && { httpStatus: error.details.httpStatus }),
  });
  throw error;
}

function refusal(
  step: AuthenticationStep,
  reason: string,
  message: string,
  httpStatus: number | null,
): AuthenticationError {
  return new AuthenticationError(message, { httpStatus, wwwAuthenticate: null, step, reason });
}

/** Registers every credential a request carries (form secrets, the Authorization header) as canaries. */
function registerRequestCanaries(context: AuthFlowContext, init: RequestInit | undefined): void {
  const form = formBody(init?.body);
  for (const name of CREDENTIAL_PARAMS) {
    const value = form?.get(name);
    if (value) context.redactor.addCanary(value);
  }
  const authorization = new Headers(init?.headers).get('authorization');
  if (authorization !== null) addCredentialCanary(context.redactor, authorization);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Checks a successful response body of `step`, registering the secrets it holds; returns a refusal or undefined. */
function inspect(context: AuthFlowContext, step: AuthenticationStep, url: URL, text: string, status: number) {
  const json = parseJson(text);
  const object =
    typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  if (step === AuthenticationStep.TOKEN || step === AuthenticationStep.REFRESH) {
    for (const field of TOKEN_FIELDS)
      if (typeof object?.[field] === 'string') context.redactor.addCanary(object[field]);
    if (object === undefined || typeof object.access_token !== 'string' || typeof object.token_type !== 'string') {
      return refusal(
        step,
        'malformed_token_response',
        `the token endpoint at ${url.host} answered ${status} with a malformed token response (not a JSON object ` +
          'with string access_token and token_type): fix the authorization server',
        status,
      );
    }
  }
  if (step === AuthenticationStep.CLIENT_REGISTRATION) {
    for (const field of REGISTRATION_SECRETS)
      if (typeof object?.[field] === 'string') context.redactor.addCanary(object[field]);
  }
  if (step === AuthenticationStep.PROTECTED_RESOURCE_METADATA && typeof object?.resource === 'string') {
    let allowed: boolean;
    try {
      allowed = checkResourceAllowed({
        requestedResource: resourceUrlFromServerUrl(context.serverUrl),
        configuredResource: object.resource,
      });
    } catch {
      allowed = false;
    }
    if (!allowed) {
      return refusal(
        step,
        'resource_mismatch',
        `the protected resource metadata at ${url.host} names a different resource than the MCP endpoint ` +
          `${context.serverUrl.host}${context.serverUrl.pathname}: its tokens would be for another server, so the kit refuses it`,
        status,
      );
    }
  }
  if (step === AuthenticationStep.AUTHORIZATION_SERVER_METADATA && object !== undefined) {
    for (const field of ENDPOINT_FIELDS) {
      const value = object[field];
      if (typeof value !== 'string') continue;
      let host: string | undefined;
      try {
        host = new URL(value).host;
      } catch {
        host = undefined;
      }
      if (host !== url.host) {
        return refusal(
          step,
          'metadata_foreign_host',
          `the authorization server metadata at ${url.host} points ${field} to another host (${host ?? 'an invalid URL'}): ` +
            'the kit sends credentials only to the host that published the metadata; fix the metadata document',
          status,
        );
      }
    }
  }
  return undefined;
}

/**
 * The `fetch` the SDK's `auth()` uses for every authorization endpoint (metadata, registration,
 * token, refresh). It applies the endpoint trust rules, never follows a redirect, reads at most
 * 64 KiB, refuses malformed token responses, resources that are not this MCP endpoint and metadata
 * pointing to other hosts (each an `AuthenticationError` with its `reason`), registers every
 * credential sent or received as a redaction canary, and records one `auth.request` per exchange.
 */
export function authEndpointFetch(context: AuthFlowContext, base: FetchLike = fetch): FetchLike {
  return async (input, init) => {
    const url = new URL(String(input));
    const method = (init?.method ?? 'GET').toUpperCase();
    const step = classifyAuthStep(url, method, init?.body);
    try {
      await checkAuthEndpointTrust(url, context.trust, step);
    } catch (error) {
      if (error instanceof EndpointTrustError) refuse(context, error);
      throw error;
    }
    registerRequestCanaries(context, init);
    context.last = { step, httpStatus: null };
    let response: Response;
    try {
      response = await base(url, { ...init, redirect: 'manual' });
    } catch (error) {
      if (init?.signal?.aborted === true) throw error;
      context.record('auth.request', { step, host: url.host, method, outcome: 'unreachable' });
      throw new TransportConnectionError(
        `authorization endpoint ${url.host} (${step}) is unreachable: check that the authorization server is running`,
        { host: url.host, step, phase: 'connect' },
      );
    }
    const status = response.status;
    context.last = { step, httpStatus: status };
    if ((status >= 300 && status < 400) || response.type === 'opaqueredirect') {
      await response.body?.cancel().catch(() => undefined);
      context.record('auth.request', { step, host: url.host, method, httpStatus: status, outcome: 'redirect_refused' });
      refuse(
        context,
        refusal(
          step,
          'redirect_refused',
          `the ${step} endpoint at ${url.host} answered with a redirect (${status}); the kit does not follow redirects ` +
            'of authorization endpoints: point the metadata at the final endpoint',
          status,
        ),
      );
    }
    const text = await readBounded(response, MAX_AUTH_RESPONSE_BYTES);
    if (text === undefined) {
      context.record('auth.request', { step, host: url.host, method, httpStatus: status, outcome: 'too_large' });
      refuse(
        context,
        refusal(
          step,
          'response_too_large',
          `the ${step} endpoint at ${url.host} sent a response over ${MAX_AUTH_RESPONSE_BYTES} bytes; the kit stops reading ` +
            'there: fix the authorization server',
          status,
        ),
      );
    }
    const problem = response.ok ? inspect(context, step, url, text, status) : undefined;
    context.record('auth.request', {
      step,
      host: url.host,
      method,
      httpStatus: status,
      outcome: problem !== undefined ? String(problem.details.reason) : response.ok ? 'ok' : 'rejected',
    });
    if (problem !== undefined) refuse(context, problem);
    return new Response(status === 204 || status === 304 ? null : text, {
      status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
