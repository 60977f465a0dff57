import { isAbsolute, resolve } from 'node:path';
import { DEFAULT_RESULTS_DB } from '../options/testOptions';
import { UsageError } from '../options/UsageError';

/** The absolute database path of `--results-db` (default `.m3/executions.sqlite` under `cwd`). */
export function resolveResultsDb(value: string | undefined, cwd: string): string {
  if (value === undefined) return resolve(cwd, DEFAULT_RESULTS_DB);
  if (value.trim() === '') throw new UsageError('--results-db', 'must not be empty');
  return isAbsolute(value) ? value : resolve(cwd, value);
}
