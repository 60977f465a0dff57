import { createHash } from 'node:crypto';
import type { JsonValue } from '../json';

/** JSON with object keys sorted at every level, so equal values always serialize the same way. */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k] as JsonValue)}`).join(',')}}`;
}

/** sha256 (lowercase hex) of the canonical JSON of an already redacted subject. */
export function subjectDigest(redactedSubject: JsonValue): string {
  return createHash('sha256').update(canonicalJson(redactedSubject)).digest('hex');
}
