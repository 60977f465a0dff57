// Everything the static report of one run shows, gathered through the same ViewerApi the server
// uses and keyed by the same API paths, so the front-end reads it exactly as it reads /api.
import { apiPaths, TREND_BUCKETS, TREND_GROUPS } from '../../ui/api/apiPaths';
import { evidenceRefsOf } from '../../ui/api/executionPage';
import type { ViewerApi } from '../../ui/api/ViewerApi';

/** Groupings embedded for the trends view (the viewer offers these). */
export const REPORT_TREND_GROUPS: readonly string[] = [...TREND_GROUPS, 'metadata.harness_config'];
/** Raw evidence embedded per report, at most (the rest says to open `m3 ui`). */
export const REPORT_EVIDENCE_BUDGET_BYTES = 4 * 1024 * 1024;

/** The answers, by API path. */
export type ReportResponses = Record<string, unknown>;

/** Reads the run, its executions (every page), each execution, its surface coverage, the trends and raw evidence within budget. */
export async function collectReportData(api: ViewerApi, runId: string): Promise<ReportResponses> {
  const responses: ReportResponses = {};
  responses[apiPaths.runs()] = await api.runs();
  const run = await api.run(runId);
  responses[apiPaths.run(runId)] = run;
  let evidenceBytes = 0;
  for (let offset = 0; offset === 0 || offset < run.executionCount;) {
    const page = await api.executions(runId, offset);
    responses[apiPaths.executions(runId, offset)] = page;
    for (const row of page.executions) {
      const execution = await api.execution(row.executionId);
      responses[apiPaths.execution(row.executionId)] = execution;
      for (const ref of evidenceRefsOf(execution.trace?.timeline ?? [])) {
        if (evidenceBytes + ref.sizeBytes > REPORT_EVIDENCE_BUDGET_BYTES) continue;
        const path = apiPaths.evidence(row.executionId, ref.evidenceId);
        if (path in responses) continue;
        responses[path] = await api.evidence(row.executionId, ref.evidenceId);
        evidenceBytes += ref.sizeBytes;
      }
    }
    offset += page.limit;
  }
  // Surface coverage (contract §25): the run's table and the per-server trend, a few KB each.
  responses[apiPaths.surface(runId)] = await api.surface(runId);
  responses[apiPaths.surfaceTrends()] = await api.surfaceTrends();
  for (const group of REPORT_TREND_GROUPS) {
    for (const bucket of TREND_BUCKETS) responses[apiPaths.trends(group, bucket)] = await api.trends(group, bucket);
  }
  return responses;
}
