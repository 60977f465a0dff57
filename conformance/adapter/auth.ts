// The `auth/*` client scenarios of @modelcontextprotocol/conformance 0.1.16, each written as a user
// of sf-m3 would write it: `new HTTPServer({ name, url, auth })` and `kit.direct(...)`, nothing below
// the public API. Every scenario but one is an `auth: { kind: 'oauth' }` option (the framework's
// authorization servers approve at once, so the headless authorization step is enough); the
// cross-app access flow (SEP-990, an enterprise IdP's token exchange, then the jwt-bearer grant)
// is not an `oauth` option, so it is an SDK `OAuthClientProvider` given as `{ kind: 'provider' }`.
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { HTTPServer, MCPTestKit, type HttpAuth } from 'sf-m3';

/** The client ID metadata document URL the framework's authorization server accepts as it is. */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

/** The fields of `MCP_CONFORMANCE_CONTEXT` the auth scenarios use. */
interface ScenarioContext {
  name?: string;
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_token_endpoint?: string;
}

function readContext(
  scenario: string,
  context: unknown,
): Required<Pick<ScenarioContext, 'client_id'>> & ScenarioContext {
  const ctx = (typeof context === 'object' && context !== null ? context : {}) as ScenarioContext;
  if (ctx.name !== scenario || typeof ctx.client_id !== 'string') {
    throw new Error(`${scenario} needs MCP_CONFORMANCE_CONTEXT with its client_id (got ${ctx.name ?? 'none'})`);
  }
  return { ...ctx, client_id: ctx.client_id };
}

/**
 * SEP-990 cross-app access as an `OAuthClientProvider`: after discovery (`saveDiscoveryState`
 * names the authorization server and the resource) the token request exchanges the IdP's ID token
 * for an ID-JAG at the IdP and presents it with the jwt-bearer grant, authenticating with the
 * client secret (client_secret_basic).
 */
class CrossAppAccessProvider implements OAuthClientProvider {
  private saved: OAuthTokens | undefined;
  private issuer = '';
  private resource = '';

  constructor(private readonly ctx: ScenarioContext & { client_id: string }) {}

  get redirectUrl(): undefined {
    return undefined;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'sf-m3 conformance',
      redirect_uris: [],
      grant_types: ['urn:ietf:params:oauth:grant-type:jwt-bearer'],
    };
  }
  clientInformation(): OAuthClientInformationMixed {
    return {
      client_id: this.ctx.client_id,
      client_secret: this.ctx.client_secret ?? '',
      token_endpoint_auth_method: 'client_secret_basic',
    };
  }
  tokens(): OAuthTokens | undefined {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  saveDiscoveryState(state: {
    authorizationServerUrl: string;
    authorizationServerMetadata?: { issuer?: string };
    resourceMetadata?: { resource?: string };
  }): void {
    this.issuer = state.authorizationServerMetadata?.issuer ?? state.authorizationServerUrl;
    this.resource = state.resourceMetadata?.resource ?? '';
  }
  redirectToAuthorization(): never {
    throw new Error('cross-app access has no authorization step');
  }
  saveCodeVerifier(): void {}
  codeVerifier(): never {
    throw new Error('cross-app access has no PKCE verifier');
  }
  async prepareTokenRequest(): Promise<URLSearchParams> {
    const exchange = await fetch(String(this.ctx.idp_token_endpoint), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
        audience: this.issuer,
        resource: this.resource,
        subject_token: String(this.ctx.idp_id_token),
        subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
        client_id: String(this.ctx.idp_client_id),
      }),
    });
    if (!exchange.ok) throw new Error(`the IdP token exchange answered ${exchange.status}`);
    const { access_token: idJag } = (await exchange.json()) as { access_token: string };
    return new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: idJag });
  }
}

/** The `auth` option a user would write for `scenario`. */
function authFor(scenario: string, context: unknown): HttpAuth {
  switch (scenario) {
    case 'auth/client-credentials-jwt': {
      const ctx = readContext(scenario, context);
      return {
        kind: 'oauth',
        grant: 'client_credentials',
        clientId: ctx.client_id,
        privateKey: String(ctx.private_key_pem),
        ...(ctx.signing_algorithm !== undefined && { signingAlgorithm: ctx.signing_algorithm }),
      };
    }
    case 'auth/client-credentials-basic': {
      const ctx = readContext(scenario, context);
      return {
        kind: 'oauth',
        grant: 'client_credentials',
        clientId: ctx.client_id,
        clientSecret: String(ctx.client_secret),
        tokenEndpointAuthMethod: 'client_secret_basic',
      };
    }
    case 'auth/pre-registration': {
      const ctx = readContext(scenario, context);
      return { kind: 'oauth', clientId: ctx.client_id, clientSecret: String(ctx.client_secret) };
    }
    case 'auth/cross-app-access-complete-flow':
      return { kind: 'provider', provider: new CrossAppAccessProvider(readContext(scenario, context)) };
    default:
      // Discovery, registration (CIMD when offered, else dynamic), scopes, step-up, token
      // endpoint methods, resource checks, offline access: the plain oauth option.
      return { kind: 'oauth', clientMetadataUrl: CIMD_URL };
  }
}

/**
 * Runs one `auth/*` scenario against `serverUrl` through the kit's public API; resolves when the
 * scenario's client side is done, rejects when it cannot be done. `context` is the parsed
 * `MCP_CONFORMANCE_CONTEXT` (client ids, secrets, IdP endpoints) or undefined when none was given.
 */
export async function runAuthScenario(scenario: string, serverUrl: string, context: unknown): Promise<void> {
  const kit = new MCPTestKit({ suiteName: 'conformance' });
  try {
    const server = new HTTPServer({ name: 'conformance', url: serverUrl, auth: authFor(scenario, context) });
    const client = await kit.direct(server).connect();
    const tools = await client.listAllTools();
    if (tools.some((tool) => tool.name === 'test-tool')) await client.callTool('test-tool', {});
    await client.close();
  } finally {
    await kit.close();
  }
}
