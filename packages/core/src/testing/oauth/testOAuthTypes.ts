/** A client the test authorization server knows before any registration (pre-registered). */
export interface TestOAuthClient {
  clientId: string;
  /** Required for `client_secret_basic` / `client_secret_post`. */
  clientSecret?: string;
  /** Default: `client_secret_basic` with a secret, `private_key_jwt` with a public key, else `none`. */
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'none' | 'private_key_jwt';
  /** SPKI PEM public key verifying `private_key_jwt` assertions. */
  publicKey?: string;
  /** Redirect URIs accepted at the authorization endpoint (default: any loopback URI). */
  redirectUris?: string[];
}

/** What the test authorization server is and supports. Everything has a working default. */
export interface TestAuthorizationServerOptions {
  clients?: TestOAuthClient[];
  /** Dynamic client registration at `/register` (default true). */
  registration?: boolean;
  /**
   * Client ID metadata documents the server accepts, by their https URL (it never fetches them:
   * the test names them). When given, the metadata advertises `client_id_metadata_document_supported`.
   */
  clientMetadataDocuments?: Record<string, { redirect_uris?: string[]; client_name?: string }>;
  /** Default all four: client_secret_basic, client_secret_post, none, private_key_jwt. */
  tokenEndpointAuthMethods?: string[];
  scopesSupported?: string[];
  /** Issue refresh tokens (default true). */
  refreshTokens?: boolean;
  /** Access token lifetime (default 3600 s). */
  accessTokenTtlSeconds?: number;
}

/**
 * Scripted misbehaviour for testing a client's bad-input paths; set with `script()`, cleared with
 * `script({})`.
 */
export interface TestAuthorizationFaults {
  /** The token endpoint answers a redirect, malformed JSON, more than 64 KiB, or an OAuth error. */
  token?: 'redirect' | 'malformed' | 'oversized' | 'invalid_grant';
  /** The metadata document points its token endpoint to another host. */
  metadataForeignHost?: boolean;
  /** The authorization endpoint denies (redirects with `error=access_denied`) or shows a login page (200). */
  authorization?: 'deny' | 'login_page';
}

/** One request the test authorization server answered, without any secret. */
export interface TestAuthorizationRequest {
  step: 'metadata' | 'registration' | 'authorization' | 'token';
  grantType?: string;
  clientId?: string;
  /** How the client authenticated at the token endpoint. */
  clientAuthMethod?: string;
  scope?: string;
  resource?: string;
  status: number;
}

/** What an access token grants, as the protected MCP server checks it. */
export interface TestTokenGrant {
  clientId: string;
  scopes: string[];
  resource: string | undefined;
  expiresAt: number;
}
