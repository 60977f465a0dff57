// The judge budget of a run (`m3 test --judge-max-requests N`, contract §21): a cap on judge calls for
// the whole run, counted in the store so every Jest worker and process draws on the same total.
import { ModelValidationError } from '../../errors/M3Error';
import type { ExecutionStore } from '../../store/ExecutionStore';

/** Environment variable carrying `--judge-max-requests` from the `m3` CLI to every Jest worker. */
export const JUDGE_MAX_REQUESTS_ENV = 'M3_JUDGE_MAX_REQUESTS';

/** What a judge asks before it sends a request: may it spend one more of the run's budget? */
export interface JudgeBudget {
  /** Judge requests the whole run may send. */
  readonly limit: number;
  /** Counts one request and resolves true, or resolves false (counting nothing) once the budget is spent. */
  reserve(): Promise<boolean>;
}

/** The budget of `runId` kept in `store` (`ExecutionStore.reserveJudgeRequest`). */
export function storeJudgeBudget(store: ExecutionStore, runId: string, limit: number): JudgeBudget {
  checkJudgeMaxRequests(limit, 'judgeMaxRequests');
  return Object.freeze({ limit, reserve: () => store.reserveJudgeRequest(runId, limit) });
}

/** Throws `ModelValidationError` naming `source` unless `limit` is a whole number >= 0. */
export function checkJudgeMaxRequests(limit: unknown, source: string): number {
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0) {
    throw new ModelValidationError(`${source} must be a whole number of judge requests >= 0, got ${String(limit)}`, {
      option: source,
    });
  }
  return limit;
}

/**
 * The judge request cap from the option, else from `M3_JUDGE_MAX_REQUESTS` (set by `m3 test
 * --judge-max-requests`), else `null` (no cap). A malformed variable is an error naming it.
 */
export function resolveJudgeMaxRequests(option: number | undefined, env: NodeJS.ProcessEnv): number | null {
  if (option !== undefined) return checkJudgeMaxRequests(option, 'judgeMaxRequests');
  const raw = env[JUDGE_MAX_REQUESTS_ENV];
  if (raw === undefined || raw.trim() === '') return null;
  if (!/^\d+$/.test(raw.trim())) {
    throw new ModelValidationError(
      `${JUDGE_MAX_REQUESTS_ENV} must be a whole number of judge requests >= 0, got ${JSON.stringify(raw)}: fix or unset it`,
      { option: JUDGE_MAX_REQUESTS_ENV },
    );
  }
  return checkJudgeMaxRequests(Number(raw.trim()), JUDGE_MAX_REQUESTS_ENV);
}
