import { TransportStartupError } from '../errors';
import type { Redactor } from '../redaction/Redactor';
import { isSecretRef, resolveSecret, type SecretRef } from '../redaction/SecretRef';

/**
 * The HTTP bearer token of a direct client (`options.bearerToken`), resolved at connect time and
 * registered as a redaction canary; undefined when none is configured. An unset secret or an
 * empty token throws `TransportStartupError` naming the variable, never a value.
 */
export function resolveBearerToken(configured: string | SecretRef | undefined, redactor: Redactor): string | undefined {
  if (configured === undefined) return undefined;
  const token = isSecretRef(configured) ? resolveSecret(configured) : configured;
  if (token === undefined || token === '') {
    const env = isSecretRef(configured) ? configured.env : null;
    throw new TransportStartupError(
      env !== null
        ? `the bearerToken secret is not set: export ${env} before connecting`
        : 'bearerToken is empty: pass a token or secretFromEnv(NAME)',
      { env },
    );
  }
  redactor.addCanary(token);
  return token;
}
