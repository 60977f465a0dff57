import { selectPrunedRuns, type PruneOptions, type PruneReport, type PruneSelection } from '../prune';
import type { RunRecord } from '../records';
import type { MemoryTables } from './MemoryTables';

/**
 * `InMemoryExecutionStore.pruneRuns`: removes the runs `selection` picks out of `runs` (newest
 * first, as `listRuns` returns them) and the rows only they reference: attempts, executions with
 * their traces, sessions, turns and latest evaluation rows, evidence no kept execution saved,
 * suites nothing kept uses. With `dryRun` it reports the same selection and changes nothing.
 */
export function pruneMemoryRuns(
  tables: MemoryTables,
  runs: readonly RunRecord[],
  selection: PruneSelection,
  options: PruneOptions,
): PruneReport {
  const { pruned, skipped } = selectPrunedRuns(runs, selection, options);
  const runIds = new Set(pruned.map((run) => run.runId));
  const attempts = [...tables.attempts.values()].filter((a) => runIds.has(a.runId));
  const attemptIds = new Set(attempts.map((a) => a.attemptId));
  const executions = [...tables.executions.values()].filter((e) =>
    e.runId === null ? e.attemptId !== null && attemptIds.has(e.attemptId) : runIds.has(e.runId),
  );
  const executionIds = new Set(executions.map((e) => e.executionId));
  const evaluations = [...tables.latest.entries()].filter(
    ([, s]) =>
      (s.labels.runId !== null && runIds.has(s.labels.runId)) ||
      (s.result.executionId !== null && executionIds.has(s.result.executionId)),
  );
  const report: PruneReport = {
    dryRun: options.dryRun === true,
    runIds: pruned.map((run) => run.runId),
    executionCount: executions.length,
    evaluationCount: evaluations.length,
    ...(skipped.length > 0 && { skippedRunIds: skipped.map((run) => run.runId) }),
  };
  if (report.dryRun) return report;
  const suiteIds = new Set(attempts.map((a) => a.suiteId).filter((id): id is number => id !== null));
  const suiteNames = new Set(executions.map((e) => e.suiteName).filter((n): n is string => n !== null));
  const blobs = new Set(executions.flatMap((e) => tables.executionBlobs.get(e.executionId) ?? []));
  for (const [key, stored] of evaluations) {
    tables.latest.delete(key);
    tables.requiredLineages.delete(key);
    tables.evaluationIds.delete(stored.result.evaluationId);
    tables.executionTimes.delete(stored.result.evaluationId);
  }
  for (const id of executionIds) {
    for (const map of [tables.executions, tables.traces, tables.sessions, tables.turns, tables.executionBlobs]) {
      map.delete(id);
    }
  }
  for (const id of attemptIds) tables.attempts.delete(id);
  for (const id of runIds) {
    tables.runs.delete(id);
    tables.judgeRequests.delete(id);
    tables.shards.delete(id);
  }
  dropUnsharedBlobs(tables, blobs);
  dropUnusedSuites(tables, suiteIds, suiteNames);
  return report;
}

/** Removes the `candidates` no remaining execution saved. */
function dropUnsharedBlobs(tables: MemoryTables, candidates: ReadonlySet<string>): void {
  const kept = new Set([...tables.executionBlobs.values()].flat());
  for (const sha256 of candidates) if (!kept.has(sha256)) tables.blobs.delete(sha256);
}

/** Removes suites the pruned rows used when no remaining attempt, execution or evaluation does. */
function dropUnusedSuites(tables: MemoryTables, ids: ReadonlySet<number>, names: ReadonlySet<string>): void {
  const usedIds = new Set([...tables.attempts.values()].map((a) => a.suiteId));
  const usedNames = new Set([
    ...[...tables.executions.values()].map((e) => e.suiteName),
    ...[...tables.latest.values()].map((s) => s.labels.suiteName),
  ]);
  for (const [name, suite] of tables.suites) {
    const candidate = ids.has(suite.suiteId) || names.has(name);
    if (candidate && !usedIds.has(suite.suiteId) && !usedNames.has(name)) tables.suites.delete(name);
  }
}
