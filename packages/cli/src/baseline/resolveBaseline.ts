// `--baseline latest|RUN_ID` of `m3 test` and `m3 report`: the run a summary is compared with.
import type { ExecutionStore, RunRecord } from '@sf-m3/core';
import { UsageError } from '../options/UsageError';

/** The baseline run to compare with, or a note saying why there is none. */
export interface ResolvedBaseline {
  runId: string | null;
  note: string | null;
}

/**
 * Resolves a `--baseline` value (`latest` or an already validated run id). `latest` is the newest
 * run that started before `current`, or the newest run of all when `current` is `null` (`m3 test`,
 * before its own run exists); an id the database does not hold is a usage error.
 */
export async function resolveBaseline(
  store: ExecutionStore,
  baseline: string | null,
  current: RunRecord | null,
): Promise<ResolvedBaseline> {
  if (baseline === null) return { runId: null, note: null };
  if (baseline === 'latest') {
    // listRuns is newest first; with a current run it is read uncapped, so an old run still finds
    // its predecessor.
    const previous =
      current === null
        ? (await store.listRuns({ limit: 1 }))[0]
        : (await store.listRuns()).find((r) => r.runId !== current.runId && r.startedAt < current.startedAt);
    return previous ? { runId: previous.runId, note: null } : { runId: null, note: 'no earlier run to compare with' };
  }
  if ((await store.getRun(baseline)) === null) {
    throw new UsageError('--baseline', `run ${baseline} was not found in the results database`);
  }
  return { runId: baseline, note: null };
}
