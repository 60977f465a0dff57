// Opens the results database the CLI reads (and, before a run, checks the baseline in).
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ExecutionStore } from '@sf-m3/core';
import { UsageError } from '../options/UsageError';

/**
 * Opens the SQLite store at `path`. With `mustExist`, a missing file is a usage error naming
 * `--results-db` (reading commands never create an empty database by accident).
 */
export function openResultsStore(path: string, options: { mustExist: boolean }): ExecutionStore {
  if (!existsSync(path)) {
    if (options.mustExist) {
      throw new UsageError(
        '--results-db',
        `no results database at ${path}; run \`m3 test\` first or pass --results-db`,
      );
    }
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new UsageError('--results-db', `cannot create the folder for ${path} (${code}); choose a writable path`);
    }
  }
  // Loaded on demand: `m3 --help` and usage errors never load the native sqlite3 module.
  const { SQLiteExecutionStore } = require('@sf-m3/store-sqlite') as typeof import('@sf-m3/store-sqlite');
  return new SQLiteExecutionStore(path);
}
