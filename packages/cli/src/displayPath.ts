import { isAbsolute, relative } from 'node:path';
import { isPostgresUrl, showResultsLocation } from '@sf-m3/core/internal';

/** A path as shown to the user: relative when inside `cwd`, else absolute; a database URL without its credentials. */
export function displayPath(cwd: string, absolute: string): string {
  if (isPostgresUrl(absolute)) return showResultsLocation(absolute);
  const rel = relative(cwd, absolute);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? absolute : rel;
}
