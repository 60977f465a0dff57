// The values that differ between two JSON documents, as JSON paths: how a tool's input or output
// schema, description or annotations changed between two runs.
import type { DefinitionDifference } from '../../summary/RunSummary';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `$.a.b`, `$["a b"]`, `$.items[0]`. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every path where `before` and `after` differ, depth first with keys sorted. Objects are compared
 * key by key, arrays index by index (except `required` and `enum`, sets whose order carries no
 * meaning); a value that changes type is one difference at its path.
 */
export function definitionDifferences(before: unknown, after: unknown, path = '$'): DefinitionDifference[] {
  if (before === undefined && after === undefined) return [];
  if (before === undefined) return [{ path, change: 'added', before: null, after }];
  if (after === undefined) return [{ path, change: 'removed', before, after: null }];
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => definitionDifferences(before[key], after[key], childPath(path, key)));
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const last = path.slice(path.lastIndexOf('.') + 1);
    if ((last === 'required' || last === 'enum') && before.every((v) => typeof v !== 'object')) {
      return setDifferences(before, after, path);
    }
    const length = Math.max(before.length, after.length);
    const out: DefinitionDifference[] = [];
    for (let i = 0; i < length; i += 1) {
      out.push(...definitionDifferences(before[i], after[i], childPath(path, i)));
    }
    return out;
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path, change: 'changed', before, after }];
}

/** `required: ["a"] → ["a", "b"]` is `b` added to the set at that path. */
function setDifferences(before: unknown[], after: unknown[], path: string): DefinitionDifference[] {
  const had = new Set(before.map((v) => JSON.stringify(v)));
  const has = new Set(after.map((v) => JSON.stringify(v)));
  const out: DefinitionDifference[] = [];
  for (const value of after)
    if (!had.has(JSON.stringify(value))) out.push({ path, change: 'added', before: null, after: value });
  for (const value of before)
    if (!has.has(JSON.stringify(value))) out.push({ path, change: 'removed', before: value, after: null });
  return out;
}
