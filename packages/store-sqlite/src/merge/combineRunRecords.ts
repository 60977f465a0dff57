import type { AttemptCounts, RunProblem, RunRecord, RunStatus } from '@sf-m3/core';

/** Which status wins when shards of one run disagree: any shard still running keeps the run running. */
const STATUS_RANK: Record<RunStatus, number> = { passed: 0, failed: 1, interrupted: 2, running: 3 };

/**
 * One run record from two copies of the same run (two shards, or the same file merged again):
 * earliest start, latest finish (none while a shard runs), the worst status, every distinct
 * problem once. Each step is idempotent and order-free, so merging a file twice changes nothing.
 * `counts` is the caller's: it recounts the merged attempts.
 */
export function combineRunRecords(a: RunRecord, b: RunRecord, counts: AttemptCounts): RunRecord {
  const status = STATUS_RANK[a.status] >= STATUS_RANK[b.status] ? a.status : b.status;
  const finishedAt =
    status === 'running' || a.finishedAt === null || b.finishedAt === null
      ? null
      : a.finishedAt > b.finishedAt
        ? a.finishedAt
        : b.finishedAt;
  const problems = distinctProblems([...(a.problems ?? []), ...(b.problems ?? [])]);
  const { problems: _ignored, ...rest } = a;
  return {
    ...rest,
    label: a.label ?? b.label,
    startedAt: a.startedAt < b.startedAt ? a.startedAt : b.startedAt,
    finishedAt: status === 'running' ? null : finishedAt,
    status,
    counts,
    ...(problems.length > 0 && { problems }),
  };
}

function distinctProblems(problems: readonly RunProblem[]): RunProblem[] {
  const seen = new Map<string, RunProblem>();
  for (const problem of problems) {
    seen.set(JSON.stringify([problem.kind, problem.testPath, problem.message]), problem);
  }
  return [...seen.values()];
}
