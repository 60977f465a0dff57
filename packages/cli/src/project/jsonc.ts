// A small JSONC reader (JSON with comments and trailing commas, as tsconfig.json is) that keeps the
// offset of every value, so edits can insert text into the file instead of re-serializing it and
// losing the user's comments and layout.

/** A parsed JSONC value and where its text starts and ends (`end` is exclusive). */
export type JsoncNode = JsoncObject | JsoncArray | JsoncPrimitive;

/** An object: its properties in file order. */
export interface JsoncObject {
  readonly kind: 'object';
  readonly start: number;
  readonly end: number;
  readonly properties: readonly JsoncProperty[];
}

/** One `"key": value` of an object. */
export interface JsoncProperty {
  readonly key: string;
  readonly keyStart: number;
  readonly value: JsoncNode;
}

/** An array: its elements in file order. */
export interface JsoncArray {
  readonly kind: 'array';
  readonly start: number;
  readonly end: number;
  readonly elements: readonly JsoncNode[];
}

/** A string, number, boolean or null. */
export interface JsoncPrimitive {
  readonly kind: 'primitive';
  readonly start: number;
  readonly end: number;
  readonly value: string | number | boolean | null;
}

/** The text is not JSONC; `offset` is where reading stopped. */
export class JsoncSyntaxError extends Error {
  readonly offset: number;

  constructor(message: string, offset: number) {
    super(`${message} at offset ${offset}`);
    this.name = 'JsoncSyntaxError';
    this.offset = offset;
  }
}

/** Index of the first character at or after `from` that is neither whitespace nor inside a comment. */
export function skipTrivia(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\uFEFF') {
      i += 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close === -1) throw new JsoncSyntaxError('unterminated comment', i);
      i = close + 2;
    } else {
      break;
    }
  }
  return i;
}

class Reader {
  constructor(private readonly text: string) {}

  value(at: number): JsoncNode {
    const i = skipTrivia(this.text, at);
    const c = this.text[i];
    if (c === '{') return this.object(i);
    if (c === '[') return this.array(i);
    if (c === '"') {
      const end = this.stringEnd(i);
      return { kind: 'primitive', start: i, end, value: JSON.parse(this.text.slice(i, end)) as string };
    }
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(this.text.slice(i));
    if (literal === null) throw new JsoncSyntaxError('expected a value', i);
    const end = i + literal[0].length;
    return { kind: 'primitive', start: i, end, value: JSON.parse(literal[0]) as number | boolean | null };
  }

  private stringEnd(start: number): number {
    for (let i = start + 1; i < this.text.length; i += 1) {
      const c = this.text[i];
      if (c === '\\') i += 1;
      else if (c === '"') return i + 1;
      else if (c === '\n') break;
    }
    throw new JsoncSyntaxError('unterminated string', start);
  }

  private object(start: number): JsoncObject {
    const properties: JsoncProperty[] = [];
    let i = skipTrivia(this.text, start + 1);
    while (this.text[i] !== '}') {
      if (this.text[i] !== '"') throw new JsoncSyntaxError('expected a property name in double quotes', i);
      const keyEnd = this.stringEnd(i);
      const key = JSON.parse(this.text.slice(i, keyEnd)) as string;
      const colon = skipTrivia(this.text, keyEnd);
      if (this.text[colon] !== ':') throw new JsoncSyntaxError('expected ":"', colon);
      const value = this.value(colon + 1);
      properties.push({ key, keyStart: i, value });
      i = this.afterElement(value.end, '}');
    }
    return { kind: 'object', start, end: i + 1, properties };
  }

  private array(start: number): JsoncArray {
    const elements: JsoncNode[] = [];
    let i = skipTrivia(this.text, start + 1);
    while (this.text[i] !== ']') {
      const value = this.value(i);
      elements.push(value);
      i = this.afterElement(value.end, ']');
    }
    return { kind: 'array', start, end: i + 1, elements };
  }

  /** After an element: a comma (then maybe the closing bracket: a trailing comma) or the closing bracket. */
  private afterElement(from: number, close: '}' | ']'): number {
    const i = skipTrivia(this.text, from);
    if (this.text[i] === close) return i;
    if (this.text[i] !== ',') throw new JsoncSyntaxError(`expected "," or "${close}"`, i);
    return skipTrivia(this.text, i + 1);
  }
}

/** Parses JSONC text; throws `JsoncSyntaxError` when it is not JSONC. */
export function parseJsonc(text: string): JsoncNode {
  const root = new Reader(text).value(0);
  const rest = skipTrivia(text, root.end);
  if (rest !== text.length) throw new JsoncSyntaxError('unexpected text after the value', rest);
  return root;
}

/** The property `key` of an object node, if the node is an object and has it. */
export function propertyOf(node: JsoncNode | undefined, key: string): JsoncProperty | undefined {
  if (node?.kind !== 'object') return undefined;
  // JSON lets a key repeat; as with JSON.parse, the last one wins.
  return [...node.properties].reverse().find((p) => p.key === key);
}

/** The plain JavaScript value of a node (what JSON.parse would give for the same JSON). */
export function plainValue(node: JsoncNode): unknown {
  if (node.kind === 'primitive') return node.value;
  if (node.kind === 'array') return node.elements.map(plainValue);
  const result: Record<string, unknown> = {};
  for (const p of node.properties) result[p.key] = plainValue(p.value);
  return result;
}
