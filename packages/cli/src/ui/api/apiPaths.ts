// The viewer's API paths, written once: the browser client requests them, the server routes them,
// and the static report embeds their answers under the same keys. Pure strings, no Node APIs.

/** How many executions one page of a run's execution list holds. */
export const EXECUTION_PAGE_SIZE = 50;
/** How many runs the runs view and the trend charts cover. */
export const RUN_LIST_LIMIT = 50;

/** How many runs the surface trends cover (each run's coverage is merged from its executions). */
export const SURFACE_TREND_RUNS = 20;

/** Labels a trend chart can group by (besides `metadata.<key>`). */
export const TREND_GROUPS = ['evaluator', 'suiteName', 'model', 'harness', 'caseId'] as const;
/** The x axis of a trend chart: one point per run, or per UTC day or week. */
export const TREND_BUCKETS = ['run', 'time.day', 'time.week'] as const;
export type TrendBucket = (typeof TREND_BUCKETS)[number];

/** A `metadata.<key>` label: letters, digits, `_`, `.`, `-`. */
export const METADATA_GROUP = /^metadata\.[A-Za-z0-9_.-]{1,64}$/;

/** True when `group` is a label a trend may group by. */
export function isTrendGroup(group: string): boolean {
  return (TREND_GROUPS as readonly string[]).includes(group) || METADATA_GROUP.test(group);
}

/** The API paths, by view. */
export const apiPaths = {
  runs: (): string => '/api/runs',
  run: (runId: string): string => `/api/runs/${encodeURIComponent(runId)}`,
  executions: (runId: string, offset: number): string =>
    `/api/runs/${encodeURIComponent(runId)}/executions?offset=${offset}`,
  execution: (executionId: string): string => `/api/executions/${encodeURIComponent(executionId)}`,
  evidence: (executionId: string, evidenceId: string): string =>
    `/api/executions/${encodeURIComponent(executionId)}/evidence/${encodeURIComponent(evidenceId)}`,
  surface: (runId: string): string => `/api/runs/${encodeURIComponent(runId)}/surface`,
  surfaceTrends: (): string => '/api/trends/surface',
  trends: (group: string, bucket: TrendBucket): string =>
    `/api/trends?group=${encodeURIComponent(group)}&bucket=${encodeURIComponent(bucket)}`,
};
