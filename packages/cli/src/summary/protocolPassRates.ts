// Per MCP revision of an era matrix (contract §23: `describe.m3(name, { protocols })`), how the run
// went: its tests (attempts under a `[protocol=REV]` block) and the pass rates of the evaluations of
// executions labelled `metadata.protocolVersion`, one evaluator per row (rates of different
// evaluators do not share a denominator). A team moving a server to 2026-07-28 reads where the two
// eras differ here.
import type { AggregateValues, AttemptRecord } from '@sf-m3/core';
import type { ProtocolPassRates, ProtocolRevisionStats } from './RunSummary';
import type { SummaryStore } from './collectRunFacts';

/** The revision of an era-matrix test, from the block `describe.m3` titles `[protocol=REV]`. */
export function revisionOfTest(fullName: string): string | null {
  return /\[protocol=([^\]\s]+)\]/.exec(fullName)?.[1] ?? null;
}

function evaluatorRow(evaluator: string, values: AggregateValues): ProtocolRevisionStats['evaluators'][number] {
  return {
    evaluator,
    passRate: values.passRate,
    interval: values.passRateInterval,
    passed: values.passedCount,
    expected: values.expectedCount,
  };
}

/**
 * Reads the per-revision tests and evaluation pass rates of a run, or `null` when the run has no
 * era-matrix test and no execution labelled with a revision. A test retried counts once, by its
 * last attempt.
 */
export async function collectProtocolPassRates(
  store: SummaryStore,
  runId: string,
  attempts: readonly AttemptRecord[],
): Promise<ProtocolPassRates | null> {
  const report = await store.aggregateEvaluations({
    filters: { runId: [runId] },
    groupBy: ['metadata.protocolVersion', 'evaluator'],
  });
  const revisions = new Map<string, ProtocolRevisionStats>();
  const entry = (revision: string): ProtocolRevisionStats => {
    let stats = revisions.get(revision);
    if (stats === undefined) {
      stats = { revision, tests: 0, testsPassed: 0, testsFailed: 0, evaluators: [] };
      revisions.set(revision, stats);
    }
    return stats;
  };
  const lastAttempt = new Map<string, AttemptRecord>();
  for (const attempt of attempts) {
    const key = `${attempt.testPath}\u0000${attempt.fullName}`;
    const seen = lastAttempt.get(key);
    if (seen === undefined || attempt.retryIndex >= seen.retryIndex) lastAttempt.set(key, attempt);
  }
  for (const attempt of lastAttempt.values()) {
    const revision = revisionOfTest(attempt.fullName);
    if (revision === null || attempt.outcome === 'skipped' || attempt.outcome === 'todo') continue;
    const stats = entry(revision);
    stats.tests += 1;
    if (attempt.outcome === 'passed') stats.testsPassed += 1;
    else stats.testsFailed += 1;
  }
  for (const group of report.groups) {
    const revision = group.key['metadata.protocolVersion'];
    if (revision === null || revision === undefined) continue;
    entry(revision).evaluators.push(evaluatorRow(group.key.evaluator ?? '(unnamed)', group.values));
  }
  if (revisions.size === 0) return null;
  const rows = [...revisions.values()].sort((a, b) => a.revision.localeCompare(b.revision));
  for (const row of rows) row.evaluators.sort((a, b) => a.evaluator.localeCompare(b.evaluator));
  return { revisions: rows };
}
