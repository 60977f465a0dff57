import { isAbsolute, relative } from 'node:path';

/** A path as shown to the user: relative when inside `cwd`, else absolute. */
export function displayPath(cwd: string, absolute: string): string {
  const rel = relative(cwd, absolute);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? absolute : rel;
}
