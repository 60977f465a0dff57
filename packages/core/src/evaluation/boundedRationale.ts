import type { Redactor } from '../redaction/Redactor';

/** Longest rationale stored, in characters. */
export const MAX_RATIONALE_CHARS = 2000;
const ELLIPSIS = '…';

/** Redacts first, then clips to `max` characters (ending with `…` when clipped). */
export function boundText(text: string, redactor: Redactor, max: number): string {
  const redacted = redactor.redactText(text);
  if (redacted.length <= max) return redacted;
  return redacted.slice(0, max - ELLIPSIS.length) + ELLIPSIS;
}

/** A stored rationale: redacted and at most 2000 characters; null stays null. */
export function boundedRationale(text: string | null | undefined, redactor: Redactor): string | null {
  if (text === null || text === undefined) return null;
  return boundText(text, redactor, MAX_RATIONALE_CHARS);
}

/**
 * Redacts every string inside a JSON value (canaries, bearer tokens, URL credentials) without
 * key-name redaction, so counters such as `totalTokens` in metrics and provenance survive.
 */
export function redactStrings<T>(value: T, redactor: Redactor): T {
  if (typeof value === 'string') return redactor.redactText(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactStrings(v, redactor)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, redactStrings(v, redactor)]),
    ) as T;
  }
  return value;
}
