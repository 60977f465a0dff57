// Pass rates of a run's agent executions per harness, per model and per case: the evaluations whose
// execution carries a `harness` label, grouped by the execution labels through the store's
// aggregation (one evaluator per row, since rates of different evaluators do not share a denominator).
import type { AggregateValues, AggregationReport } from '@sf-m3/core';
import type { AgentGroupStats, AgentPassRates } from './RunSummary';
import type { SummaryStore } from './collectRunFacts';

function stats(key: Record<string, string | null>, values: AggregateValues): AgentGroupStats {
  return {
    evaluator: key.evaluator ?? '(unnamed)',
    harness: key.harness ?? null,
    model: key.model ?? null,
    caseId: key.caseId ?? null,
    passRate: values.passRate,
    interval: values.passRateInterval,
    passed: values.passedCount,
    expected: values.expectedCount,
    evaluationCount: values.evaluationCount,
    executionCount: values.executionCount,
    caseCount: values.caseCount,
    casesAllPassed: values.casesAllPassed,
    casesAnyPassed: values.casesAnyPassed,
    statusCounts: values.statusCounts,
  };
}

function rows(report: AggregationReport, keep: (key: Record<string, string | null>) => boolean): AgentGroupStats[] {
  return report.groups
    .filter((group) => keep(group.key))
    .map((group) => stats(group.key, group.values))
    .sort(
      (a, b) =>
        a.evaluator.localeCompare(b.evaluator) ||
        (a.harness ?? '').localeCompare(b.harness ?? '') ||
        (a.model ?? '').localeCompare(b.model ?? '') ||
        (a.caseId ?? '').localeCompare(b.caseId ?? ''),
    );
}

/**
 * Reads the per-harness, per-model and per-case pass rates of a run's agent executions, or `null`
 * when no evaluation of the run belongs to an agent execution (one with a `harness` label).
 */
export async function collectAgentPassRates(store: SummaryStore, runId: string): Promise<AgentPassRates | null> {
  const byHarnessReport = await store.aggregateEvaluations({
    filters: { runId: [runId] },
    groupBy: ['evaluator', 'harness'],
  });
  const byHarness = rows(byHarnessReport, (key) => key.harness !== null);
  if (byHarness.length === 0) return null;
  const harnesses = [...new Set(byHarness.map((row) => row.harness as string))];
  const agentFilter = { runId: [runId], harness: harnesses };
  const [byModelReport, byCaseReport] = await Promise.all([
    store.aggregateEvaluations({ filters: agentFilter, groupBy: ['evaluator', 'harness', 'model'] }),
    store.aggregateEvaluations({ filters: agentFilter, groupBy: ['evaluator', 'caseId'] }),
  ]);
  return {
    byHarness,
    byModel: rows(byModelReport, () => true),
    byCase: rows(byCaseReport, () => true),
  };
}
