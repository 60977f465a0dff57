// Finds the object literal a JavaScript/TypeScript Jest config exports and lists its top-level
// properties, by scanning text (no parser dependency). Anything it cannot read with certainty —
// a function export, two exports, unbalanced brackets — comes back as a reason, and the caller
// tells the user what to add instead of guessing.
import type { LiteralSpan } from './insertEntries';

/** One top-level entry of the exported object. */
export interface JsProperty {
  /** The key, or null for a spread (`...base`) or a computed key. */
  readonly key: string | null;
  readonly spread: boolean;
  readonly start: number;
  readonly end: number;
  /** The value's source text (for a shorthand property, the key itself). */
  readonly valueText: string;
}

/** The exported object literal of a config file. */
export interface ExportedObject {
  readonly span: LiteralSpan;
  readonly properties: readonly JsProperty[];
}

const REGEX_AFTER = new Set([
  '',
  '(',
  ',',
  '=',
  ':',
  '[',
  '!',
  '&',
  '|',
  '?',
  '{',
  '}',
  ';',
  '+',
  '-',
  '*',
  '%',
  '<',
  '>',
  '~',
  '^',
]);

/**
 * `text` with comment, string, template and regular-expression contents blanked to spaces (same
 * length, quotes kept), so brackets and keywords can be found by position without false hits.
 */
export function maskCode(text: string): string {
  const out = text.split('');
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k += 1) if (out[k] !== '\n') out[k] = ' ';
  };
  let previous = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      const stop = close === -1 ? text.length : close + 2;
      blank(i, stop);
      i = stop;
    } else if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && (c === '`' || text[j] !== '\n')) j += text[j] === '\\' ? 2 : 1;
      blank(i + 1, Math.min(j, text.length));
      previous = c;
      i = j + 1;
    } else if (c === '/' && REGEX_AFTER.has(previous)) {
      let j = i + 1;
      let inClass = false;
      while (j < text.length && text[j] !== '\n' && (inClass || text[j] !== '/')) {
        if (text[j] === '[') inClass = true;
        else if (text[j] === ']') inClass = false;
        j += text[j] === '\\' ? 2 : 1;
      }
      blank(i + 1, j);
      previous = 'regex';
      i = j + 1;
    } else {
      if (!/\s/.test(c)) previous = /[\w$)\]]/.test(c) ? 'value' : c;
      i += 1;
    }
  }
  return out.join('');
}

function declarationObject(masked: string, name: string): number | string {
  const pattern = new RegExp(`\\b(?:const|let|var)\\s+${name.replace(/\$/g, '\\$')}\\s*(?::[^=;]+)?=\\s*\\{`, 'g');
  const found = [...masked.matchAll(pattern)];
  if (found.length !== 1) return `it exports \`${name}\`, which is not declared once as an object literal`;
  return found[0]!.index + found[0]![0].length - 1;
}

/** Offset of the `{` of the exported object, or why it cannot be found with certainty. */
export function exportedObjectStart(masked: string): number | string {
  const exports = [...masked.matchAll(/\bmodule\.exports\s*=|\bexport\s+default\b/g)];
  if (exports.length === 0) return 'it has no `module.exports =` or `export default`';
  if (exports.length > 1) return 'it has more than one `module.exports =` / `export default`';
  const after = masked.slice(exports[0]!.index + exports[0]![0].length);
  const offset = masked.length - after.length;
  const literal = /^\s*\{/.exec(after);
  if (literal !== null) return offset + literal[0].length - 1;
  const name = /^\s*([A-Za-z_$][\w$]*)\s*(?:satisfies\s+[\w.$]+\s*)?(?:;|\n|$)/.exec(after);
  if (name !== null) return declarationObject(masked, name[1]!);
  return 'it does not export an object literal (a function or a call, perhaps)';
}

function closingOf(masked: string, open: number): number {
  let depth = 0;
  for (let i = open; i < masked.length; i += 1) {
    const c = masked[i]!;
    if (c === '{' || c === '[' || c === '(') depth += 1;
    else if (c === '}' || c === ']' || c === ')') {
      depth -= 1;
      if (depth === 0) return c === '}' ? i : -1;
    }
  }
  return -1;
}

function describeEntry(text: string, start: number, end: number): JsProperty {
  const source = text.slice(start, end);
  if (source.startsWith('...')) return { key: null, spread: true, start, end, valueText: source.slice(3).trim() };
  const keyed = /^(?:([A-Za-z_$][\w$]*)|'([^'\\]*)'|"([^"\\]*)")\s*:/.exec(source);
  if (keyed !== null) {
    const key = keyed[1] ?? keyed[2] ?? keyed[3]!;
    return { key, spread: false, start, end, valueText: source.slice(keyed[0].length).trim() };
  }
  const shorthand = /^([A-Za-z_$][\w$]*)\s*(?:\(|$)/.exec(source);
  return { key: shorthand?.[1] ?? null, spread: false, start, end, valueText: source };
}

/** The exported object and its top-level properties, or why the file cannot be edited safely. */
export function readExportedObject(text: string): ExportedObject | string {
  const masked = maskCode(text);
  const open = exportedObjectStart(masked);
  if (typeof open === 'string') return open;
  const close = closingOf(masked, open);
  if (close === -1) return 'its brackets do not balance as far as a text scan can tell';
  const properties: JsProperty[] = [];
  let depth = 0;
  let entryStart = -1;
  const finish = (at: number): void => {
    if (entryStart === -1) return;
    const end = entryStart + masked.slice(entryStart, at).trimEnd().length;
    properties.push(describeEntry(text, entryStart, end));
    entryStart = -1;
  };
  for (let i = open + 1; i < close; i += 1) {
    const c = masked[i]!;
    if (depth === 0 && c === ',') {
      finish(i);
      continue;
    }
    if (c === '{' || c === '[' || c === '(') depth += 1;
    else if (c === '}' || c === ']' || c === ')') depth -= 1;
    if (entryStart === -1 && !/\s/.test(c)) entryStart = i;
  }
  finish(close);
  return {
    span: { start: open, end: close + 1, entries: properties.map((p) => ({ start: p.start, end: p.end })) },
    properties,
  };
}

/** The value of a plain string literal (`'sf-m3'`, `"x"`, `` `x` `` without `${}`), else null. */
export function stringLiteralValue(source: string): string | null {
  const match = /^(['"`])([^'"`\\]*)\1$/.exec(source.trim());
  if (match === null || (match[1] === '`' && match[2]!.includes('${'))) return null;
  return match[2]!;
}
