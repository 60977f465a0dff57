// Text insertions into an object or array literal (JSONC or JavaScript) that follow the layout
// already there: one entry per line at the siblings' indentation in a multi-line literal, inline in
// a one-line literal, a trailing comma kept when the file uses them, and a comment at the end of a
// line left on the line it describes.

/** An object or array literal in a file: its brackets and its entries' offsets (`end` exclusive). */
export interface LiteralSpan {
  /** Offset of the opening bracket. */
  readonly start: number;
  /** Offset just after the closing bracket. */
  readonly end: number;
  /** Each entry (a property from its key to its value's end, or an element). */
  readonly entries: readonly { readonly start: number; readonly end: number }[];
}

/** The whitespace that starts the line holding `offset`. */
export function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** The file's indentation step: the indentation of its first indented line (two spaces if none). */
export function indentUnit(text: string): string {
  const match = /\n([ \t]+)\S/.exec(text);
  return match === null ? '  ' : match[1]!;
}

function startsOwnLine(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return text.slice(lineStart, offset).trim() === '';
}

/**
 * Where text can go after `from` without splitting what is on that line: the end of the line when
 * only spaces and comments follow (so a trailing comment stays with its entry), else `from`.
 */
function endOfLineAfter(text: string, from: number): number {
  let i = from;
  for (;;) {
    while (text[i] === ' ' || text[i] === '\t') i += 1;
    if (text.startsWith('//', i)) {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i += 1;
      return i;
    }
    if (text.startsWith('/*', i)) {
      const close = text.indexOf('*/', i + 2);
      if (close === -1 || text.slice(i, close).includes('\n')) return from;
      i = close + 2;
      continue;
    }
    if (i >= text.length || text[i] === '\n' || text[i] === '\r') return i;
    return from;
  }
}

/** Next offset after `from` that is not whitespace or a comment. */
function nextCode(text: string, from: number): number {
  let i = from;
  for (;;) {
    while (/\s/.test(text[i] ?? '')) i += 1;
    if (text.startsWith('//', i)) {
      while (i < text.length && text[i] !== '\n') i += 1;
    } else if (text.startsWith('/*', i)) {
      const close = text.indexOf('*/', i + 2);
      i = close === -1 ? text.length : close + 2;
    } else {
      return i;
    }
  }
}

/** Applies insertions; two at one offset land in list order. */
function insert(text: string, edits: { at: number; text: string }[]): string {
  let result = text;
  const ordered = edits.map((edit, index) => ({ ...edit, index })).sort((a, b) => b.at - a.at || b.index - a.index);
  for (const edit of ordered) {
    result = result.slice(0, edit.at) + edit.text + result.slice(edit.at);
  }
  return result;
}

function intoEmpty(text: string, span: LiteralSpan, items: readonly string[]): string {
  const inner = text.slice(span.start + 1, span.end - 1);
  const open = text[span.start];
  if (!inner.includes('\n') && inner.trim() === '') {
    const body = items.join(', ');
    const padded = open === '{' ? ` ${body} ` : body;
    return text.slice(0, span.start + 1) + padded + text.slice(span.end - 1);
  }
  const childIndent = lineIndent(text, span.start) + indentUnit(text);
  const lastCode = span.start + 1 + inner.trimEnd().length;
  const block = `\n${childIndent}${items.join(`,\n${childIndent}`)}`;
  const closing = inner.slice(lastCode - span.start - 1).includes('\n') ? '' : `\n${lineIndent(text, span.start)}`;
  return insert(text, [{ at: lastCode, text: block + closing }]);
}

/** `text` with `items` (entry texts, e.g. `"types": ["jest"]` or `"sf-m3/globals"`) added last. */
export function appendEntries(text: string, span: LiteralSpan, items: readonly string[]): string {
  if (span.entries.length === 0) return intoEmpty(text, span, items);
  const last = span.entries[span.entries.length - 1]!;
  const afterLast = nextCode(text, last.end);
  const trailingComma = text[afterLast] === ',';
  if (startsOwnLine(text, last.start)) {
    const indent = lineIndent(text, last.start);
    const block = items.map((item) => `\n${indent}${item}`).join(',');
    if (trailingComma) return insert(text, [{ at: endOfLineAfter(text, afterLast + 1), text: `${block},` }]);
    return insert(text, [
      { at: last.end, text: ',' },
      { at: endOfLineAfter(text, last.end), text: block },
    ]);
  }
  if (trailingComma) return insert(text, [{ at: afterLast + 1, text: ` ${items.join(', ')},` }]);
  return insert(text, [{ at: last.end, text: `, ${items.join(', ')}` }]);
}

/** `text` with `item` added as the first entry of the literal. */
export function prependEntry(text: string, span: LiteralSpan, item: string): string {
  if (span.entries.length === 0) return intoEmpty(text, span, [item]);
  const first = span.entries[0]!;
  if (startsOwnLine(text, first.start)) {
    const indent = lineIndent(text, first.start);
    return insert(text, [{ at: endOfLineAfter(text, span.start + 1), text: `\n${indent}${item},` }]);
  }
  return insert(text, [{ at: first.start, text: `${item}, ` }]);
}
