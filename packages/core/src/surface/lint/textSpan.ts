import type { ToolLintSpan } from './ToolLintViolation';

/** Longest span text shown in a message. */
export const MAX_SPAN_TEXT = 120;

/** Invisible and control characters written as `\u{...}` so a message shows them. */
export function printable(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    const visible = /[\p{L}\p{N}\p{P}\p{S}\p{Zs}]/u.test(ch) && !/\p{Cf}/u.test(ch) && cp !== 0x3164 && cp !== 0x2800;
    out += visible && cp !== 0x00a0 ? ch : `\\u{${cp.toString(16).toUpperCase()}}`;
  }
  return out;
}

/** The span of `text.slice(start, end)` in `field`, printable and bounded. */
export function spanOf(field: string, text: string, start: number, end: number): ToolLintSpan {
  const shown = printable(text.slice(start, end));
  return { field, start, end, text: shown.length > MAX_SPAN_TEXT ? `${shown.slice(0, MAX_SPAN_TEXT)}…` : shown };
}

/** `description[12..40] "..."`: how a message names a span. */
export function describeSpan(span: ToolLintSpan): string {
  return `${span.field}[${span.start}..${span.end}] "${span.text}"`;
}
