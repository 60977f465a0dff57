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

/** `text` made printable and cut to `MAX_SPAN_TEXT` characters, never inside a `\u{...}` escape. */
export function clipPrintable(text: string): string {
  const shown = printable(text);
  if (shown.length <= MAX_SPAN_TEXT) return shown;
  let cut = shown.slice(0, MAX_SPAN_TEXT);
  const escape = cut.lastIndexOf('\\u{');
  if (escape !== -1 && !cut.includes('}', escape)) cut = cut.slice(0, escape);
  return `${cut}…`;
}

/** The span of `text.slice(start, end)` in `field`, printable and bounded. */
export function spanOf(field: string, text: string, start: number, end: number): ToolLintSpan {
  return { field, start, end, text: clipPrintable(text.slice(start, end)) };
}

/** `description[12..40] "..."`: how a message names a span. */
export function describeSpan(span: ToolLintSpan): string {
  return `${span.field}[${span.start}..${span.end}] "${span.text}"`;
}
