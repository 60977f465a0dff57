import type { JsonValue } from '../json';

/**
 * The strings of one channel that change from run to run (temp folders, ports): replaced by
 * `<volatile:1>`, `<volatile:2>`… (numbered in the order given) before matching and writing, and
 * put back when a recorded response is replayed, so a replayed answer names this run's folders.
 */
export class VolatileStrings {
  /** Pairs of value and placeholder, longest value first (a value inside another is replaced last). */
  private readonly pairs: ReadonlyArray<readonly [string, string]>;

  constructor(values: readonly string[] = []) {
    const pairs: Array<readonly [string, string]> = [];
    const seen = new Set<string>();
    values.forEach((value) => {
      if (value.length === 0 || seen.has(value)) return;
      seen.add(value);
      pairs.push([value, `<volatile:${pairs.length + 1}>`]);
    });
    this.pairs = pairs.sort((a, b) => b[0].length - a[0].length);
  }

  /** True when there is nothing to replace. */
  get empty(): boolean {
    return this.pairs.length === 0;
  }

  /** `text` with every volatile string replaced by its placeholder. */
  hide(text: string): string {
    let out = text;
    for (const [value, placeholder] of this.pairs) {
      if (out.includes(value)) out = out.split(value).join(placeholder);
    }
    return out;
  }

  /** `text` with every placeholder replaced by this run's value. */
  restore(text: string): string {
    let out = text;
    for (const [value, placeholder] of this.pairs) {
      if (out.includes(placeholder)) out = out.split(placeholder).join(value);
    }
    return out;
  }

  /** `value` with `hide` applied to every string inside it. */
  hideJson(value: JsonValue): JsonValue {
    return this.empty ? value : mapStrings(value, (text) => this.hide(text));
  }

  /** `value` with `restore` applied to every string inside it. */
  restoreJson(value: JsonValue): JsonValue {
    return this.empty ? value : mapStrings(value, (text) => this.restore(text));
  }
}

function mapStrings(value: JsonValue, map: (text: string) => string): JsonValue {
  if (typeof value === 'string') return map(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  const out: { [key: string]: JsonValue } = {};
  for (const [key, item] of Object.entries(value)) out[key] = mapStrings(item, map);
  return out;
}
