import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ModelValidationError } from '../errors';
import type { JsonObject } from '../json';
import type { Redactor } from '../redaction/Redactor';
import type { HTTPServer } from '../servers/HTTPServer';
import { resolveBearerToken } from '../client/bearerToken';
import type { TraceRecorder } from '../trace/TraceRecorder';
import { authenticatedFetch } from './authenticatedFetch';
import type { AuthEventKind, AuthFlowContext } from './AuthFlowContext';
import { createAuthProvider } from './createAuthProvider';
import { OAuthSession } from './OAuthSession';

/** What an HTTP connection needs from its `auth` option. */
export interface PreparedHttpAuth {
  /** `Authorization` for a bearer token (already a canary), else undefined. */
  authorization: string | undefined;
  /** Wraps the MCP endpoint fetch with the challenge handling and the OAuth flow. */
  wrap(fetch: FetchLike): FetchLike;
}

/** Where `prepareHttpAuth` records and redacts. */
export interface PrepareHttpAuthOptions {
  redactor: Redactor;
  recorder: TraceRecorder;
  connectionId: string;
  /** True when the direct client also sets `bearerToken` (a conflict with `auth`). */
  hasBearerOption: boolean;
}

/**
 * Resolves a server's `auth` at connect time (contract §17): a bearer token becomes a header; `oauth`
 * and `provider` get an `OAuthSession` whose flow runs on the first challenge. Every connection,
 * with or without auth, turns an unresolved 401/403 into `AuthenticationError`, and records its
 * `auth.*` events in the connection's trace.
 */
export function prepareHttpAuth(server: HTTPServer, url: URL, options: PrepareHttpAuthOptions): PreparedHttpAuth {
  const auth = server.auth;
  if (auth !== undefined && options.hasBearerOption) {
    throw new ModelValidationError(
      `server ${server.name} has auth, and the direct client sets bearerToken: give one of them`,
    );
  }
  const { recorder } = options;
  let connected = false;
  const context: AuthFlowContext = {
    serverName: server.name,
    serverUrl: url,
    trust: server.trust,
    redactor: options.redactor,
    refusal: undefined,
    last: undefined,
    record(kind: AuthEventKind, payload: JsonObject): void {
      if (recorder.finished) return;
      recorder.record(kind, {
        phase: connected ? 'mcp_call' : 'startup',
        origin: 'normalized',
        direction: 'internal',
        server: server.name,
        connectionId: options.connectionId,
        payload,
      });
    },
  };
  let session: OAuthSession | undefined;
  let authorization: string | undefined;
  if (auth?.kind === 'bearer') {
    const token = resolveBearerToken(auth.token, options.redactor) as string;
    authorization = `Bearer ${token}`;
    options.redactor.addCanary(authorization);
  } else if (auth?.kind === 'oauth') {
    const provider = createAuthProvider(auth, context);
    session = new OAuthSession(context, provider, provider, auth.grant ?? 'authorization_code');
  } else if (auth?.kind === 'provider') {
    session = new OAuthSession(context, auth.provider, undefined, 'provider');
  }
  return {
    authorization,
    wrap(fetch: FetchLike): FetchLike {
      const wrapped = authenticatedFetch(fetch, context, session);
      return async (input, init) => {
        const response = await wrapped(input, init);
        connected = true;
        return response;
      };
    },
  };
}
