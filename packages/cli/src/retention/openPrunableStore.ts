// Opens the results database `m3 prune` writes: it must exist (prune never creates an empty one).
import { existsSync } from 'node:fs';
import type { ExecutionStore } from '@sf-m3/core';
import { UsageError } from '../options/UsageError';
import { openRunResultsStore } from '../store/openResultsStore';

/** True for a database URL (`postgres://…`) rather than a file path. */
function isUrl(location: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(location);
}

/**
 * Opens `location` for writing, now, so a foreign, newer or read-only database is a `StoreError`
 * (exit 2) before anything is selected. A file that does not exist is a usage error naming
 * `--results-db`; a URL goes to whichever store `m3 test` opens for it.
 */
export async function openPrunableStore(location: string): Promise<ExecutionStore> {
  if (!isUrl(location) && !existsSync(location)) {
    throw new UsageError(
      '--results-db',
      `no results database at ${location}; run \`m3 test\` first or pass --results-db`,
    );
  }
  return openRunResultsStore(location);
}
