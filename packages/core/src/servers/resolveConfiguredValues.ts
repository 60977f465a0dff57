import { TransportStartupError } from '../errors';
import type { Redactor } from '../redaction/Redactor';
import { credentialForms } from '../redaction/credentialShape';
import { isSensitiveName } from '../redaction/Redactor';
import { isSecretRef, resolveSecret } from '../redaction/SecretRef';
import type { ConfiguredValue } from './ServerDefinition';

/** Where resolved values go and how missing secrets are reported. */
export interface ResolveOptions {
  redactor: Redactor;
  /** `env` of a stdio server or `headers` of an HTTP server. */
  what: 'env' | 'headers';
  serverName: string;
  /** Where secrets are read from (default `process.env`). */
  source?: NodeJS.ProcessEnv;
}

/** Registers a credential as a canary, and for `Bearer x`/`Basic x` also the bare token. */
export function addCredentialCanary(redactor: Redactor, value: string): void {
  for (const form of credentialForms(value)) redactor.addCanary(form);
}

/**
 * Resolves env or header values at connect time. Values from `secretFromEnv`, and every value
 * whose name contains KEY, TOKEN, SECRET or PASSWORD (or is Authorization), become redaction
 * canaries before anything is recorded.
 * @throws TransportStartupError naming the unset environment variable (never a value)
 */
export function resolveConfiguredValues(
  values: Readonly<Record<string, ConfiguredValue>>,
  options: ResolveOptions,
): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (isSecretRef(value)) {
      const secret = resolveSecret(value, options.source ?? process.env);
      if (secret === undefined) {
        throw new TransportStartupError(
          `server ${options.serverName}: ${options.what} entry ${key} uses secretFromEnv('${value.env}'), ` +
            `but environment variable ${value.env} is not set: set it before connecting`,
          { server: options.serverName, variable: value.env, entry: key },
        );
      }
      addCredentialCanary(options.redactor, secret);
      resolved[key] = secret;
    } else {
      if (isSensitiveName(key)) addCredentialCanary(options.redactor, value);
      resolved[key] = value;
    }
  }
  return resolved;
}
