import { REDACTED } from '@sf-m3/core';
import { isSensitiveName } from '@sf-m3/core/internal';
import type { RedactorLike } from './findKit';
import { isAsymmetricMatcher, UNAVAILABLE } from './matchValue';

/** Longest string shown inside a value before it is cut. */
export const MAX_STRING_CHARS = 500;
/** Most array items or object keys shown. */
export const MAX_ITEMS = 50;
/** Deepest nesting shown. */
export const MAX_DEPTH = 6;
/** Longest failure message; the rest is cut with a note. */
export const MAX_MESSAGE_CHARS = 8000;

function boundString(text: string, redactor: RedactorLike): string {
  const redacted = redactor.redactText(text);
  if (redacted.length <= MAX_STRING_CHARS) return redacted;
  return `${redacted.slice(0, MAX_STRING_CHARS)}…[${redacted.length - MAX_STRING_CHARS} more chars]`;
}

/**
 * A copy of `value` that is safe to print: secrets redacted (the kit's redactor plus secret-named
 * keys), strings, lists and depth bounded. Asymmetric matchers and regexps are kept so Jest prints
 * them in its own way.
 */
export function safeValue(value: unknown, redactor: RedactorLike, depth = 0): unknown {
  if (value === UNAVAILABLE) return '[unavailable]';
  if (typeof value === 'string') return boundString(value, redactor);
  if (typeof value === 'function') return `[Function ${value.name || 'anonymous'}]`;
  if (typeof value === 'bigint') return `${value.toString()}n`;
  if (value === null || typeof value !== 'object') return value;
  if (isAsymmetricMatcher(value) || Object.prototype.toString.call(value) === '[object RegExp]') return value;
  if (Buffer.isBuffer(value)) return `[Buffer ${value.length} bytes]`;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? '[Array …]' : '[Object …]';
  if (Array.isArray(value)) {
    const shown = value.slice(0, MAX_ITEMS).map((item) => safeValue(item, redactor, depth + 1));
    if (value.length > MAX_ITEMS) shown.push(`…[${value.length - MAX_ITEMS} more items]`);
    return shown;
  }
  const out: Record<string, unknown> = {};
  const entries = Object.entries(value as Record<string, unknown>);
  for (const [key, item] of entries.slice(0, MAX_ITEMS)) {
    out[key] =
      isSensitiveName(key) && (typeof item === 'string' || typeof item === 'number')
        ? REDACTED
        : safeValue(item, redactor, depth + 1);
  }
  if (entries.length > MAX_ITEMS) out['…'] = `${entries.length - MAX_ITEMS} more keys`;
  return out;
}

/** A one-line, bounded, redacted JSON preview of a value (for call lists). */
export function preview(value: unknown, redactor: RedactorLike, maxChars = 160): string {
  if (value === UNAVAILABLE) return '[unavailable]';
  if (value === undefined) return 'undefined';
  let text: string;
  try {
    text = JSON.stringify(safeValue(value, redactor)) ?? String(value);
  } catch {
    text = '[unprintable]';
  }
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

const ANSI = new RegExp(String.raw`\u001b\[[0-9;]*m`, 'g');

/** Removes terminal colours (for stored rationales). */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** Redacts the whole message once more (secrets split across values) and bounds its length. */
export function finishMessage(text: string, redactor: RedactorLike): string {
  const redacted = redactor.redactText(text);
  if (redacted.length <= MAX_MESSAGE_CHARS) return redacted;
  return `${redacted.slice(0, MAX_MESSAGE_CHARS)}\n…[message truncated, ${redacted.length - MAX_MESSAGE_CHARS} more chars]`;
}
