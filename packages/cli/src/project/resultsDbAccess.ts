// Whether `m3 test` could write its results database, found without opening it: an existing
// database is never created, changed or locked by the check (SQLite also writes `-wal`/`-journal`
// files beside it, so its folder must be writable too); a missing one needs its nearest existing
// folder to be a writable folder, because `m3 test` creates the rest.
import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';

/** The answer for one database path. */
export type ResultsDbAccess =
  | { readonly ok: true; readonly exists: boolean }
  | { readonly ok: false; readonly problem: string; readonly fix: string };

function stat(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function writable(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

const folderFix = (folder: string): string =>
  `make it writable (chmod u+w ${folder}) or pass another path with --results-db / M3_RESULTS_DB`;

/** Checks `path` (absolute) by permissions only. */
export function checkResultsDbAccess(path: string): ResultsDbAccess {
  const file = stat(path);
  if (file !== null) {
    if (!file.isFile()) {
      return { ok: false, problem: `${path} is not a file`, fix: 'remove it or pass another path with --results-db' };
    }
    if (!writable(path, constants.R_OK | constants.W_OK)) {
      return { ok: false, problem: `${path} is not writable`, fix: `chmod u+rw ${path}, or pass another --results-db` };
    }
    const folder = dirname(path);
    if (!writable(folder, constants.W_OK | constants.X_OK)) {
      return {
        ok: false,
        problem: `the folder ${folder} is not writable (SQLite writes its journal there)`,
        fix: folderFix(folder),
      };
    }
    return { ok: true, exists: true };
  }
  let folder = dirname(path);
  for (;;) {
    const found = stat(folder);
    if (found !== null) {
      if (!found.isDirectory()) {
        return {
          ok: false,
          problem: `${folder} is a file, so ${path} cannot be created under it`,
          fix: 'move that file away or pass another path with --results-db / M3_RESULTS_DB',
        };
      }
      if (!writable(folder, constants.W_OK | constants.X_OK)) {
        return { ok: false, problem: `the folder ${folder} is not writable`, fix: folderFix(folder) };
      }
      return { ok: true, exists: false };
    }
    const parent = dirname(folder);
    if (parent === folder)
      return { ok: false, problem: `no folder of ${path} exists`, fix: 'pass another --results-db' };
    folder = parent;
  }
}
