import { TransportStartupError } from '../errors';
import type { Redactor } from '../redaction/Redactor';
import { isSecretRef, resolveSecret, type SecretRef } from '../redaction/SecretRef';
import { addCredentialCanary } from '../servers/resolveConfiguredValues';
import type { AuthFlowContext } from './AuthFlowContext';
import { callbackAuthorization, headlessAuthorization } from './authorizationStep';
import type { OAuthAuth } from './HttpAuth';
import { KitOAuthProvider } from './KitOAuthProvider';
import { algorithmForKey, privateKeyJwtAuth } from './privateKeyJwt';

/** Resolves a configured secret at connect time and makes it (and its lines) a canary. */
function resolveAuthSecret(
  value: string | SecretRef | undefined,
  what: string,
  redactor: Redactor,
): string | undefined {
  if (value === undefined) return undefined;
  const resolved = isSecretRef(value) ? resolveSecret(value) : value;
  if (resolved === undefined) {
    const env = isSecretRef(value) ? value.env : '';
    throw new TransportStartupError(`the auth ${what} secret is not set: export ${env} before connecting`, { env });
  }
  addCredentialCanary(redactor, resolved);
  for (const line of resolved.split(/\r?\n/))
    if (line.length >= 16 && !line.startsWith('-----')) redactor.addCanary(line);
  return resolved;
}

/**
 * Builds the kit's `OAuthClientProvider` for an `oauth` auth option (either grant, every client
 * authentication method; `private_key_jwt` signs with `privateKeyJwtAuth`). Secrets are resolved
 * now, at connect time, and become canaries. The SDK's `ClientCredentialsProvider` and
 * `PrivateKeyJwtProvider` are not used as they are: without an `expectedIssuer` (which the
 * option cannot know) they print a deprecation warning, and their signing imports the ESM-only
 * `jose`, which Jest's CommonJS runtime cannot load. Their token request is reproduced exactly.
 */
export function createAuthProvider(auth: OAuthAuth, context: AuthFlowContext): KitOAuthProvider {
  const clientSecret = resolveAuthSecret(auth.clientSecret, 'clientSecret', context.redactor);
  const privateKey = resolveAuthSecret(auth.privateKey, 'privateKey', context.redactor);
  const algorithm = privateKey !== undefined ? (auth.signingAlgorithm ?? algorithmForKey(privateKey)) : undefined;
  const method = auth.tokenEndpointAuthMethod ?? (privateKey !== undefined ? 'private_key_jwt' : undefined);
  return new KitOAuthProvider({
    redactor: context.redactor,
    grant: auth.grant ?? 'authorization_code',
    ...(auth.clientId !== undefined && { clientId: auth.clientId }),
    ...(clientSecret !== undefined && { clientSecret }),
    ...(auth.clientMetadataUrl !== undefined && { clientMetadataUrl: auth.clientMetadataUrl }),
    ...(auth.clientMetadata !== undefined && { clientMetadata: auth.clientMetadata }),
    ...(method !== undefined && { tokenEndpointAuthMethod: method }),
    ...(auth.scope !== undefined && { scope: auth.scope }),
    ...(privateKey !== undefined &&
      algorithm !== undefined &&
      auth.clientId !== undefined && {
        addClientAuthentication: privateKeyJwtAuth(auth.clientId, privateKey, algorithm),
      }),
    authorize: (url, state) =>
      auth.authorize !== undefined
        ? callbackAuthorization(context, auth.authorize, url, state)
        : headlessAuthorization(context, url, state),
  });
}
