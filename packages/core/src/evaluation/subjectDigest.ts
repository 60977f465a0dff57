import { createHash } from 'node:crypto';
import type { JsonValue } from '../json';
import { toJsonValue } from '../redaction/Redactor';

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

/**
 * The JSON form of an evaluation subject. An `ExecutionResult`'s `evaluations` list is left out:
 * it grows with every verdict, and the subject's identity (its lineage digest) must not.
 */
export function subjectJson(subject: unknown): JsonValue {
  if (typeof subject === 'object' && subject !== null && !Array.isArray(subject)) {
    const s = subject as Record<string, unknown>;
    if ('evaluations' in s && 'snapshot' in s && typeof s.executionId === 'string') {
      const copy: Record<string, unknown> = {};
      for (const key of Object.keys(s)) if (key !== 'evaluations') copy[key] = s[key];
      return toJsonValue(copy);
    }
  }
  return toJsonValue(subject);
}
