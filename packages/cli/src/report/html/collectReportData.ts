// Everything the static report of one run shows, gathered through the same ViewerApi the server
// uses and keyed by the same API paths, so the front-end reads it exactly as it reads /api.
//
// The report has a size budget (issue 27: ≤ 1 MB for 100 tests). What answers "what failed, and
// why?" goes in first: the run, its execution list, the runs and surface views, and every execution
// of a failed test or with a non-completed outcome (whole when they all fit, else with values cut
// at 1000 characters). Then, while the budget lasts: the small trend answers, the other executions
// (whole when they all fit, else cut at 160 characters; those with a failed evaluation first), the
// failed executions' raw evidence, the larger trend answers, the rest of the evidence. What did not
// fit is counted in `omitted`, and the page says to open it with `m3 ui`.
import { apiPaths, TREND_BUCKETS, TREND_GROUPS } from '../../ui/api/apiPaths';
import { evidenceRefsOf, type ExecutionPage } from '../../ui/api/executionPage';
import type { ViewerApi } from '../../ui/api/ViewerApi';
import { embeddableJson } from './renderReportPage';
import { FAILED_STRING_CHARS, SUMMARY_STRING_CHARS, summarizeValue } from './summarizeValue';

/** Groupings embedded for the trends view (the viewer offers these). */
export const REPORT_TREND_GROUPS: readonly string[] = [...TREND_GROUPS, 'metadata.harness_config'];
/** A trend answer up to this size goes in before the passing executions. */
export const SMALL_TREND_BYTES = 64 * 1024;

/** The answers, by API path. */
export type ReportResponses = Record<string, unknown>;

/** How many answers of each kind were left out to keep the report within its budget. */
export interface ReportOmissions {
  executions: number;
  evidence: number;
  trends: number;
}

/** The embedded answers and what was left out. */
export interface BudgetedReport {
  responses: ReportResponses;
  /** Executions embedded with long strings cut (their tier did not fit whole). */
  summarizedExecutions: number;
  omitted: ReportOmissions;
  /** Bytes of embedded JSON used, of `budgetBytes`. */
  usedBytes: number;
  budgetBytes: number;
}

const sizeOf = (value: unknown): number => Buffer.byteLength(embeddableJson(value)) + 1;

/** An execution of a failed test, or one that did not complete: embedded first. */
function failedExecution(page: ExecutionPage, failedTestExecutions: ReadonlySet<string>): boolean {
  return (
    failedTestExecutions.has(page.execution.executionId) ||
    (page.execution.outcome !== null && page.execution.outcome !== 'completed')
  );
}

/** An execution with an evaluation that did not pass: the first of the summarized ones. */
const hasFailedEvaluation = (page: ExecutionPage): boolean => page.evaluations.some((e) => e.status !== 'passed');

/** Reads the run within `budgetBytes` of embedded JSON (see the file comment for the order). */
export async function collectBudgetedReport(
  api: ViewerApi,
  runId: string,
  budgetBytes: number,
): Promise<BudgetedReport> {
  const responses: ReportResponses = {};
  let used = 0;
  const put = (path: string, value: unknown, force = false): boolean => {
    const bytes = sizeOf(path) + sizeOf(value);
    if (!force && used + bytes > budgetBytes) return false;
    responses[path] = value;
    used += bytes;
    return true;
  };
  const omitted: ReportOmissions = { executions: 0, evidence: 0, trends: 0 };

  // What the run view needs: always in, whatever it weighs.
  put(apiPaths.runs(), await api.runs(), true);
  const run = await api.run(runId);
  put(apiPaths.run(runId), run, true);
  const executionIds: string[] = [];
  for (let offset = 0; offset === 0 || offset < run.executionCount;) {
    const page = await api.executions(runId, offset);
    put(apiPaths.executions(runId, offset), page, true);
    executionIds.push(...page.executions.map((row) => row.executionId));
    offset += page.limit;
  }
  put(apiPaths.surface(runId), await api.surface(runId), true);
  put(apiPaths.surfaceTrends(), await api.surfaceTrends(), true);

  // Failed executions first, then (after the small trends) the passing ones. Each tier goes in whole
  // when all of it fits, else with long values cut (at FAILED_STRING_CHARS for failed executions,
  // SUMMARY_STRING_CHARS for passing ones); what still does not fit is counted as omitted.
  const failedTestExecutions = new Set(run.failedTests.flatMap((t) => t.executions.map((e) => e.executionId)));
  const passing: ExecutionPage[] = [];
  const failed: ExecutionPage[] = [];
  for (const executionId of executionIds) {
    const page = await api.execution(executionId);
    (failedExecution(page, failedTestExecutions) ? failed : passing).push(page);
  }
  let summarizedExecutions = 0;
  const placeExecutions = (pages: readonly ExecutionPage[], maxChars: number) => {
    const whole = pages.reduce(
      (n, page) => n + sizeOf(page) + sizeOf(apiPaths.execution(page.execution.executionId)),
      0,
    );
    const cut = used + whole > budgetBytes;
    for (const page of pages) {
      if (!put(apiPaths.execution(page.execution.executionId), cut ? summarizeValue(page, maxChars) : page)) {
        omitted.executions += 1;
      } else if (cut) summarizedExecutions += 1;
    }
  };
  placeExecutions(failed, FAILED_STRING_CHARS);

  const trends: { path: string; value: unknown; bytes: number }[] = [];
  for (const group of REPORT_TREND_GROUPS) {
    for (const bucket of TREND_BUCKETS) {
      const value = await api.trends(group, bucket);
      trends.push({ path: apiPaths.trends(group, bucket), value, bytes: sizeOf(value) });
    }
  }
  const placeTrends = (fits: (bytes: number) => boolean) => {
    for (const t of trends.filter((t) => !(t.path in responses) && fits(t.bytes))) put(t.path, t.value);
  };
  placeTrends((bytes) => bytes <= SMALL_TREND_BYTES);

  passing.sort((a, b) => Number(hasFailedEvaluation(b)) - Number(hasFailedEvaluation(a)));
  placeExecutions(passing, SUMMARY_STRING_CHARS);

  const placeEvidence = async (pages: readonly ExecutionPage[]) => {
    for (const page of pages) {
      const executionId = page.execution.executionId;
      if (!(apiPaths.execution(executionId) in responses)) continue;
      for (const ref of evidenceRefsOf(page.trace?.timeline ?? [])) {
        const path = apiPaths.evidence(executionId, ref.evidenceId);
        if (path in responses) continue;
        if (used + ref.sizeBytes > budgetBytes || !put(path, await api.evidence(executionId, ref.evidenceId))) {
          omitted.evidence += 1;
        }
      }
    }
  };
  await placeEvidence(failed);
  placeTrends(() => true);
  omitted.trends = trends.filter((t) => !(t.path in responses)).length;
  await placeEvidence(passing);
  return { responses, summarizedExecutions, omitted, usedBytes: used, budgetBytes };
}

/** Reads the run, its executions (every page), each execution whole, its surface coverage, the trends and all raw evidence. */
export async function collectReportData(api: ViewerApi, runId: string): Promise<ReportResponses> {
  return (await collectBudgetedReport(api, runId, Number.POSITIVE_INFINITY)).responses;
}
