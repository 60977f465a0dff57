import { randomBytes } from 'node:crypto';
import type { AddClientAuthentication, OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Redactor } from '../redaction/Redactor';
import type { TokenEndpointAuthMethod } from './HttpAuth';

/** Where a headless or callback authorization sends the user agent back to. */
export const DEFAULT_REDIRECT_URL = 'http://localhost:8976/callback';

/** What the kit's provider is built from (secrets already resolved). */
export interface KitOAuthProviderOptions {
  redactor: Redactor;
  clientId?: string;
  clientSecret?: string;
  clientMetadataUrl?: string;
  clientMetadata?: Partial<OAuthClientMetadata>;
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  scope?: string;
  /** `private_key_jwt` client authentication, from the SDK's `createPrivateKeyJwtAuth`. */
  addClientAuthentication?: AddClientAuthentication;
  /** Runs the authorization step: the URL in, the authorization code (or undefined) out. */
  authorize(authorizationUrl: URL, expectedState: string): Promise<string>;
  /** `client_credentials`: no redirect, the token request is the grant (default authorization code). */
  grant?: 'authorization_code' | 'client_credentials';
}

/**
 * The kit's in-memory `OAuthClientProvider`: the authorization code grant (pre-registered
 * client, client ID metadata document or dynamic registration) or the client credentials grant
 * (a pre-registered client, as the SDK's `ClientCredentialsProvider` and `PrivateKeyJwtProvider`); PKCE verifier, tokens, codes and
 * state live in this object only (never stored) and each is a redaction canary as soon as it
 * exists. The authorization step runs through `options.authorize` and the code waits in
 * `takeAuthorizationCode()` for the second `auth()` call.
 */
export class KitOAuthProvider implements OAuthClientProvider {
  readonly clientMetadataUrl: string | undefined;
  readonly addClientAuthentication: AddClientAuthentication | undefined;
  private readonly options: KitOAuthProviderOptions;
  private information: OAuthClientInformationMixed | undefined;
  private tokenSet: OAuthTokens | undefined;
  private verifier: string | undefined;
  private pendingCode: string | undefined;
  private currentState: string | undefined;
  private challengedScope: string | undefined;

  constructor(options: KitOAuthProviderOptions) {
    this.options = options;
    this.clientMetadataUrl = options.clientMetadataUrl;
    this.addClientAuthentication = options.addClientAuthentication;
    if (options.clientId !== undefined) {
      this.information = {
        client_id: options.clientId,
        ...(options.clientSecret !== undefined && { client_secret: options.clientSecret }),
        ...(options.tokenEndpointAuthMethod !== undefined &&
          options.tokenEndpointAuthMethod !== 'private_key_jwt' && {
            token_endpoint_auth_method: options.tokenEndpointAuthMethod,
          }),
      };
    }
  }

  get redirectUrl(): string | undefined {
    if (this.options.grant === 'client_credentials') return undefined;
    return String(this.options.clientMetadata?.redirect_uris?.[0] ?? DEFAULT_REDIRECT_URL);
  }

  get clientMetadata(): OAuthClientMetadata {
    const given = this.options.clientMetadata ?? {};
    const machine = this.options.grant === 'client_credentials';
    return {
      client_name: 'sf-m3',
      grant_types: machine ? ['client_credentials'] : ['authorization_code', 'refresh_token'],
      response_types: machine ? [] : ['code'],
      ...(this.options.tokenEndpointAuthMethod !== undefined && {
        token_endpoint_auth_method: this.options.tokenEndpointAuthMethod,
      }),
      ...((this.challengedScope ?? this.options.scope) !== undefined && {
        scope: this.challengedScope ?? this.options.scope,
      }),
      ...given,
      redirect_uris: given.redirect_uris ?? (machine ? [] : [String(this.redirectUrl)]),
    } as OAuthClientMetadata;
  }

  /** The client credentials grant's token request; undefined (the SDK default) for authorization code. */
  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (this.options.grant !== 'client_credentials') return undefined;
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    const requested = scope ?? this.options.scope;
    if (requested !== undefined && requested !== '') params.set('scope', requested);
    return params;
  }

  state(): string {
    this.currentState = randomBytes(16).toString('base64url');
    this.options.redactor.addCanary(this.currentState);
    return this.currentState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.information;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    if ('client_secret' in information && typeof information.client_secret === 'string') {
      this.options.redactor.addCanary(information.client_secret);
    }
    this.information = information;
  }

  tokens(): OAuthTokens | undefined {
    return this.tokenSet;
  }

  saveTokens(tokens: OAuthTokens): void {
    for (const value of [tokens.access_token, tokens.refresh_token, tokens.id_token]) {
      if (value !== undefined) this.options.redactor.addCanary(value);
    }
    this.tokenSet = tokens;
  }

  /** The scope the flow about to run asks for (the SDK reads client credentials' scope from the metadata). */
  useScope(scope: string | undefined): void {
    this.challengedScope = scope;
  }

  /** Forgets the access token (step-up needs a new authorization, not a refresh with the old scope). */
  dropTokens(): void {
    this.tokenSet = undefined;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const code = await this.options.authorize(authorizationUrl, this.currentState ?? '');
    this.options.redactor.addCanary(code);
    this.pendingCode = code;
  }

  /** The code the last authorization step produced, once. */
  takeAuthorizationCode(): string | undefined {
    const code = this.pendingCode;
    this.pendingCode = undefined;
    return code;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.options.redactor.addCanary(codeVerifier);
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no PKCE code verifier: the authorization step has not run');
    return this.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.tokenSet = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    // A pre-registered client cannot be re-created by registering: keep it.
    if ((scope === 'all' || scope === 'client') && this.options.clientId === undefined) this.information = undefined;
  }
}
