/**
 * The cache hints a 2026-07-28 server puts on a cacheable result (`ttlMs`, `cacheScope`), kept
 * as sent on the kit's list results (contract §23). The kit never serves a request from a cache;
 * the hints are there for the test to assert on.
 */
export interface CacheHints {
  readonly ttlMs?: number;
  readonly cacheScope?: string;
}

/** The `ttlMs` / `cacheScope` of a result, each only when the server sent it. */
export function cacheHintsOf(result: object): CacheHints {
  const { ttlMs, cacheScope } = result as { ttlMs?: unknown; cacheScope?: unknown };
  return {
    ...(typeof ttlMs === 'number' && { ttlMs }),
    ...(typeof cacheScope === 'string' && { cacheScope }),
  };
}
