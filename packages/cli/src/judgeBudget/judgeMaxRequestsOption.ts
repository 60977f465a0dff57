// `m3 test --judge-max-requests N`: the cap on judge calls for the whole run. The CLI hands it to
// every Jest worker as M3_JUDGE_MAX_REQUESTS; each kit then draws on one counter in the results
// database (`ExecutionStore.reserveJudgeRequest`), so the cap holds across workers.
import { JUDGE_MAX_REQUESTS_ENV } from '@sf-m3/core/internal';
import { UsageError } from '../options/UsageError';

/** The flag. */
export const JUDGE_MAX_REQUESTS_FLAG = '--judge-max-requests';

/** Parses the flag's value: a whole number >= 0 (0 sends no judge request at all). */
export function parseJudgeMaxRequests(value: string): number {
  const trimmed = value.trim();
  if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed))) {
    throw new UsageError(
      JUDGE_MAX_REQUESTS_FLAG,
      `must be a whole number of judge requests (0 or more), not "${value}"`,
    );
  }
  return Number(trimmed);
}

/** Sets (or, without a cap, removes) the variable the workers read. */
export function applyJudgeMaxRequests(env: NodeJS.ProcessEnv, limit: number | null): void {
  if (limit === null) delete env[JUDGE_MAX_REQUESTS_ENV];
  else env[JUDGE_MAX_REQUESTS_ENV] = String(limit);
}
