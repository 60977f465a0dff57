// The judge budget line of the summary (`m3 test --judge-max-requests N`): how many judge requests
// the run's counter in the store granted, against the limit, and how many judge evaluations the
// budget refused (`error` verdicts with code `judge_budget_exhausted`, never sent).
import { JudgeErrorCode } from '@sf-m3/core/internal';
import type { EvaluationResult, ExecutionStore } from '@sf-m3/core';
import type { JudgeBudgetUsage } from './RunSummary';

/** The store reads the budget line needs. */
export type JudgeBudgetStore = Pick<ExecutionStore, 'countJudgeRequests'>;

/** Latest evaluations of the run whose judge call the budget refused. */
export function countRefusedJudgeCalls(evaluations: readonly EvaluationResult[]): number {
  return evaluations.filter((e) => e.metrics.errorCode === JudgeErrorCode.BUDGET_EXHAUSTED).length;
}

/**
 * The run's budget usage: with a limit (the `m3 test` that set it), always; without one (`m3
 * report` later, which does not know it), only when the store counted or refused judge requests.
 * `used` is `null` when the store cannot count them: every sf-m3 store can, but a user's own store
 * written against an older `ExecutionStore` may lack `countJudgeRequests`.
 */
export async function collectJudgeBudgetUsage(
  store: JudgeBudgetStore,
  runId: string,
  limit: number | null,
  evaluations: readonly EvaluationResult[],
): Promise<JudgeBudgetUsage | null> {
  const used = store.countJudgeRequests ? await store.countJudgeRequests(runId) : null;
  const refused = countRefusedJudgeCalls(evaluations);
  if (limit === null && !used && refused === 0) return null;
  return { limit, used, refused };
}

/** `judge budget  3/5 requests used`, with the refusals when there were any. */
export function formatJudgeBudgetLine(usage: JudgeBudgetUsage): string {
  const used = usage.used === null ? 'unknown' : String(usage.used);
  const limit = usage.limit === null ? '' : `/${usage.limit}`;
  const spent = usage.limit !== null && usage.used !== null && usage.used >= usage.limit ? ' (spent)' : '';
  const refused =
    usage.refused > 0
      ? `; ${usage.refused} judge evaluation(s) refused (${JudgeErrorCode.BUDGET_EXHAUSTED}, not sent, counted as errors)`
      : '';
  const where = usage.limit === null ? ' (the limit is not saved with the run)' : '';
  return `judge budget  ${used}${limit} request(s) used${where}${spent}${refused}`;
}
