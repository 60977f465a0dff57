import { ModelValidationError } from '../errors';

/** A value resolved from the environment at connect time and redacted everywhere. */
export interface SecretRef {
  readonly kind: 'secret_ref';
  /** The environment variable holding the secret. */
  readonly env: string;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Refers to the secret in environment variable `name`; nothing is read until connect time. */
export function secretFromEnv(name: string): SecretRef {
  if (typeof name !== 'string' || !ENV_NAME.test(name)) {
    throw new ModelValidationError(
      `secretFromEnv needs an environment variable name such as 'API_TOKEN', got ${JSON.stringify(name)}`,
    );
  }
  return Object.freeze({ kind: 'secret_ref', env: name });
}

/** True for values made by `secretFromEnv`. */
export function isSecretRef(value: unknown): value is SecretRef {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'secret_ref';
}

/** Resolves a secret from `env`; returns undefined when the variable is unset or empty. */
export function resolveSecret(ref: SecretRef, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env[ref.env];
  return value === undefined || value === '' ? undefined : value;
}
