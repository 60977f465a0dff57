import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AuthenticationError, AuthenticationStep, M3Error } from '../errors';
import { authEndpointFetch } from './authEndpointFetch';
import type { AuthFlowContext } from './AuthFlowContext';
import type { KitOAuthProvider } from './KitOAuthProvider';

/** What a 401/403 from the MCP endpoint asked for. */
export interface AuthChallenge {
  resourceMetadataUrl?: URL;
  scope?: string;
  /** True for 403 `insufficient_scope`: a new authorization with more scope, not a refresh. */
  stepUp: boolean;
}

const MESSAGE_CHARS = 300;

function unionScopes(...scopes: Array<string | undefined>): string | undefined {
  const all = new Set(scopes.flatMap((scope) => (scope ?? '').split(/\s+/).filter((s) => s !== '')));
  return all.size === 0 ? undefined : [...all].join(' ');
}

/**
 * One connection's OAuth state around an `OAuthClientProvider`: runs the SDK's `auth()` (with the
 * kit's endpoint fetch) when the MCP endpoint challenges, finishes an authorization code flow in
 * one go (the second `auth()` call with the code the kit's provider captured), serializes
 * concurrent challenges, and turns every failure into an `AuthenticationError` naming the step.
 */
export class OAuthSession {
  private readonly context: AuthFlowContext;
  private readonly provider: OAuthClientProvider;
  private readonly kit: KitOAuthProvider | undefined;
  private readonly fetchFn: FetchLike;
  private readonly grant: string;
  private running: Promise<void> | undefined;
  private requestedScope: string | undefined;

  constructor(
    context: AuthFlowContext,
    provider: OAuthClientProvider,
    kit: KitOAuthProvider | undefined,
    grant: string,
  ) {
    this.context = context;
    this.provider = provider;
    this.kit = kit;
    this.grant = grant;
    this.fetchFn = authEndpointFetch(context);
  }

  /** The current access token, if any. */
  async accessToken(): Promise<string | undefined> {
    const tokens = await this.provider.tokens();
    return tokens?.access_token;
  }

  /** Authorizes for `challenge`; concurrent callers share one flow. */
  authorize(challenge: AuthChallenge): Promise<void> {
    this.running ??= this.run(challenge).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async run(challenge: AuthChallenge): Promise<void> {
    this.context.refusal = undefined;
    this.context.last = undefined;
    if (challenge.stepUp) this.kit?.dropTokens();
    const scope = challenge.stepUp ? unionScopes(this.requestedScope, challenge.scope) : challenge.scope;
    this.requestedScope = unionScopes(this.requestedScope, scope);
    this.kit?.useScope(this.requestedScope);
    const options = {
      serverUrl: this.context.serverUrl,
      ...(challenge.resourceMetadataUrl !== undefined && { resourceMetadataUrl: challenge.resourceMetadataUrl }),
      ...(scope !== undefined && { scope }),
      fetchFn: this.fetchFn,
    };
    try {
      let result = await auth(this.provider, options);
      if (this.context.refusal !== undefined) throw this.context.refusal;
      if (result === 'REDIRECT') {
        const authorizationCode = this.kit?.takeAuthorizationCode();
        if (authorizationCode === undefined) {
          throw new AuthenticationError(
            'the OAuthClientProvider started an interactive authorization the kit cannot finish: give the provider ' +
              "tokens first, or use auth: { kind: 'oauth', authorize } to complete the authorization step",
            {
              httpStatus: null,
              wwwAuthenticate: null,
              step: AuthenticationStep.AUTHORIZATION,
              reason: 'interactive_authorization_required',
            },
          );
        }
        result = await auth(this.provider, { ...options, authorizationCode });
        if (this.context.refusal !== undefined) throw this.context.refusal;
      }
      const tokens = await this.provider.tokens();
      this.context.record('auth.completed', {
        grant: this.grant,
        outcome: 'authorized',
        stepUp: challenge.stepUp,
        refreshable: tokens?.refresh_token !== undefined,
        ...(tokens?.scope !== undefined && { scope: tokens.scope }),
      });
    } catch (error) {
      throw this.failure(error);
    }
  }

  private failure(error: unknown): M3Error {
    const refused = this.context.refusal;
    if (refused !== undefined) return refused;
    if (error instanceof M3Error) return error;
    const redactor = this.context.redactor;
    const raw = error instanceof Error ? error.message : String(error);
    const text = redactor.redactText(raw).slice(0, MESSAGE_CHARS);
    const reason =
      error instanceof OAuthError
        ? error.errorCode
        : /does not match/i.test(raw)
          ? 'resource_mismatch'
          : 'authorization_failed';
    const step = this.context.last?.step ?? AuthenticationStep.PROTECTED_RESOURCE_METADATA;
    const httpStatus = this.context.last?.httpStatus ?? null;
    this.context.record('auth.failed', { step, reason, ...(httpStatus !== null && { httpStatus }) });
    return new AuthenticationError(
      `OAuth authorization for ${this.context.serverName} failed at ${step} (${reason}): ${text}`,
      { httpStatus, wwwAuthenticate: null, step, reason },
    );
  }
}
