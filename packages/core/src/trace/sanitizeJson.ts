import type { JsonValue } from '../json';
import { isCredentialKey, REDACTED, type Redactor } from '../redaction/Redactor';

const MAX_DEPTH = 64;

/**
 * Turns any value into redacted plain JSON in one pass: drops undefined, functions and symbols,
 * maps non-finite numbers to null, Dates to ISO strings and Buffers to `base64:<...>`, honours
 * `toJSON`, replaces string and number values under sensitive keys with `[REDACTED]` and runs every
 * other string through `redactor.redactText` (the same rules as `Redactor.redactJson`).
 */
export function sanitizeJson(value: unknown, redactor: Redactor, depth = 0): JsonValue | undefined {
  switch (typeof value) {
    case 'string':
      return redactor.redactText(value);
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    default:
      break;
  }
  if (value === null) return null;
  if (depth > MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) {
    const out: JsonValue[] = new Array<JsonValue>(value.length);
    for (let i = 0; i < value.length; i += 1) out[i] = sanitizeJson(value[i], redactor, depth + 1) ?? null;
    return out;
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Buffer.isBuffer(value)) return `base64:${value.toString('base64')}`;
  const maybeJson = value as { toJSON?: () => unknown };
  if (typeof maybeJson.toJSON === 'function') return sanitizeJson(maybeJson.toJSON(), redactor, depth + 1);
  const out: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(value as object)) {
    const v = (value as Record<string, unknown>)[key];
    if (isCredentialKey(key) && (typeof v === 'string' || typeof v === 'number')) {
      out[key] = REDACTED;
      continue;
    }
    const clean = sanitizeJson(v, redactor, depth + 1);
    if (clean !== undefined) out[key] = clean;
  }
  return out;
}
