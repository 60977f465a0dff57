import { ModelValidationError, StoreError } from '@sf-m3/core/store';
import { closeSync, mkdirSync, openSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { isWritable } from './readOnlyConnection';

/** Validates a results-database path and makes it absolute. */
export function resolveStorePath(path: string): string {
  if (typeof path !== 'string' || path.trim() === '' || path === ':memory:' || path.startsWith('file:')) {
    throw new ModelValidationError(
      'SQLiteExecutionStore needs a file path such as .m3/executions.sqlite (use InMemoryExecutionStore for memory)',
    );
  }
  return resolve(path);
}

/** The nearest ancestor of `path` that exists but is not a folder, if any. */
function fileAncestor(path: string): string | null {
  for (let current = dirname(path); current !== dirname(current); current = dirname(current)) {
    let stat: Stats | undefined;
    try {
      stat = statSync(current, { throwIfNoEntry: false });
    } catch {
      continue; // ENOTDIR: a file further up; keep climbing to it
    }
    if (stat !== undefined) return stat.isDirectory() ? null : current;
  }
  return null;
}

/** Refuses a directory or a path under a regular file, and creates the parent folders. */
export function preparePath(absolute: string): void {
  const file = fileAncestor(absolute);
  if (file !== null) {
    throw new StoreError(
      `results database path ${absolute} is inside ${file}, which is a file, not a folder — ` +
        `point --results-db at a path under a folder, e.g. ${dirname(file)}/.m3/executions.sqlite`,
      { path: absolute, file },
    );
  }
  if (statSync(absolute, { throwIfNoEntry: false })?.isDirectory() === true) {
    throw new StoreError(
      `results database path is a directory: ${absolute} — give a file path inside it, e.g. ${absolute}/executions.sqlite`,
      { path: absolute },
    );
  }
  try {
    mkdirSync(dirname(absolute), { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    throw new StoreError(
      `cannot create the folder ${dirname(absolute)} of results database ${absolute} (${code}): the location is not ` +
        'writable — point --results-db at a writable path',
      { path: absolute, code },
      { cause: error },
    );
  }
}

/** The errno code of opening `path` for writing, or null when it can be written. */
function writeOpenError(path: string): string | null {
  try {
    closeSync(openSync(path, 'r+'));
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'unknown';
  }
}

/**
 * Checks that a run can write the database: the file itself, and its folder (SQLite creates the
 * `-wal` and `-shm` files, or the database itself, beside it). Throws a `StoreError` naming the
 * path and the fix, instead of the bare `SQLITE_READONLY` of the first write.
 */
export function checkWritable(absolute: string, creating: boolean): void {
  const folder = dirname(absolute);
  const name = basename(absolute);
  if (!creating) {
    const code = writeOpenError(absolute);
    if (code !== null) {
      throw new StoreError(
        `results database ${absolute} is read-only (${code}) and this run needs to write to it — make it writable ` +
          `(chmod u+w ${absolute}) or point --results-db at another file; m3 runs and m3 report can still read it`,
        { path: absolute, code },
      );
    }
  }
  if (!isWritable(folder)) {
    const needs = creating ? `to create ${name} in it` : `to create ${name}-wal and ${name}-shm beside the database`;
    throw new StoreError(
      `the folder ${folder} of results database ${absolute} is read-only, and a run needs ${needs} — make the folder ` +
        `writable or point --results-db at a file in a writable folder${creating ? '' : '; m3 runs and m3 report can still read it'}`,
      { path: absolute, folder },
    );
  }
}
