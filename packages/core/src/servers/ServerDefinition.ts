import { ModelValidationError } from '../errors';
import { TransportKind } from '../enums';
import type { JsonObject } from '../json';
import { isSecretRef, type SecretRef } from '../redaction/SecretRef';
import type { HTTPServer } from './HTTPServer';
import type { InProcessServer } from './InProcessServer';
import type { StdioServer } from './StdioServer';

/** Any server the kit can connect to; `kind` tells which. */
export type ServerDefinition = StdioServer | HTTPServer | InProcessServer;

/** A configured value that may be a secret resolved at connect time. */
export type ConfiguredValue = string | SecretRef;

/** What a trace says about a bound server: never a command line, a query string or a secret. */
export interface ServerDescription extends JsonObject {
  name: string;
  transport: TransportKind;
  target: string;
}

const KINDS: ReadonlySet<string> = new Set(Object.values(TransportKind));

/** True for a `StdioServer`, `HTTPServer` or `InProcessServer`. */
export function isServerDefinition(value: unknown): value is ServerDefinition {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { kind?: unknown; name?: unknown };
  return typeof candidate.kind === 'string' && KINDS.has(candidate.kind) && typeof candidate.name === 'string';
}

/** Checks a server name: a non-empty string of at most 256 characters once trimmed. */
export function validateServerName(name: unknown, className: string): string {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new ModelValidationError(
      `${className} needs a non-empty name, e.g. new ${className}({ name: 'catalog', ... })`,
    );
  }
  const trimmed = name.trim();
  if (trimmed.length > 256) {
    throw new ModelValidationError(`${className} name is longer than 256 characters: use a shorter name`);
  }
  return trimmed;
}

/** Rejects strings holding NUL (or, for headers, CR/LF), which a process or HTTP request cannot carry. */
function checkPlainString(value: string, what: string, forbidLineBreaks: boolean): void {
  if (value.includes('\0')) throw new ModelValidationError(`${what} contains a NUL character: remove it`);
  if (forbidLineBreaks && /[\r\n]/.test(value)) {
    throw new ModelValidationError(`${what} contains a line break: header values must be a single line`);
  }
}

/**
 * Checks a map of env or header values (strings or `secretFromEnv(...)` references) and returns
 * a frozen copy. Error messages name the entry, never its value.
 */
export function validateConfiguredValues(
  values: unknown,
  what: 'env' | 'headers',
  className: string,
): Readonly<Record<string, ConfiguredValue>> {
  if (values === undefined) return Object.freeze({});
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    throw new ModelValidationError(`${className} ${what} must be an object of name → string or secretFromEnv(...)`);
  }
  const out: Record<string, ConfiguredValue> = {};
  for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
    const valid = what === 'env' ? /^[^=\0]+$/.test(key) : /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key);
    if (!valid) throw new ModelValidationError(`${className} ${what} has an invalid name: ${JSON.stringify(key)}`);
    if (isSecretRef(value)) {
      out[key] = value;
    } else if (typeof value === 'string') {
      checkPlainString(value, `${className} ${what} entry ${key}`, what === 'headers');
      out[key] = value;
    } else {
      throw new ModelValidationError(
        `${className} ${what} entry ${key} must be a string or secretFromEnv('NAME'), got ${typeof value}`,
      );
    }
  }
  return Object.freeze(out);
}

/** A JSON-safe copy of configured values: secret references by name, sensitive plain values hidden. */
export function describeConfiguredValues(
  values: Readonly<Record<string, ConfiguredValue>>,
  isSensitive: (name: string) => boolean,
): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(values)) {
    if (isSecretRef(value)) out[key] = { kind: 'secret_ref', env: value.env };
    else out[key] = isSensitive(key) ? '[REDACTED]' : value;
  }
  return out;
}

export { checkPlainString };
