import type { JsonValue } from '../json';
import type { CassetteRequest } from './CassetteFormat';

/**
 * The string two normalized requests share exactly when they match (contract §24): method, path,
 * allowlisted headers and body, with object keys sorted at every level. (A sorted copy given to the
 * native `JSON.stringify` costs a fraction of building the text by hand: matching runs per request.)
 */
export function cassetteRequestKey(request: CassetteRequest): string {
  return JSON.stringify([request.method, request.path, sorted(request.headers), sorted(request.body)]);
}

function sorted(value: JsonValue | Readonly<Record<string, string>>): JsonValue {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(sorted);
  const keys = Object.keys(value);
  let inOrder = true;
  for (let i = 1; i < keys.length && inOrder; i += 1) inOrder = keys[i - 1]! < keys[i]!;
  const out: { [key: string]: JsonValue } = {};
  for (const key of inOrder ? keys : keys.sort()) out[key] = sorted((value as { [key: string]: JsonValue })[key]!);
  return out;
}
