import type { AggregationQuery } from '../../../core/src/store/AggregationQuery';
import type { ExecutionStore } from '../../../core/src/store/ExecutionStore';
import { attemptRecord, executionRecord, storedEvaluation } from '../../../core/src/store/storeFixtures.testkit';

/** A small deterministic PRNG so a failure is reproducible from its seed. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const STATUSES = ['passed', 'failed', 'inconclusive', 'error', 'not_run'] as const;

/**
 * Writes the same random history into every store: two runs, re-evaluated lineages (rows arriving
 * out of order), turns, required evaluators never evaluated, running attempts and executions,
 * executions linked by attempt id or from the attempt's list, labels and metadata with nulls,
 * evaluations counted under a case of their own.
 */
export async function seedGeneratedHistory(stores: readonly ExecutionStore[], random: () => number): Promise<void> {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  for (let e = 0; e < 40; e += 1) {
    const runId = pick(['run-a', 'run-b']);
    const running = random() < 0.15;
    const attempt = attemptRecord({ runId, outcome: running ? null : pick(['passed', 'failed'] as const) });
    const execution = executionRecord({
      runId,
      caseId: random() < 0.9 ? `case-${Math.floor(random() * 8)}` : null,
      attemptId: random() < 0.7 ? attempt.attemptId : null,
      createdAt: new Date(Date.UTC(2026, 2, 1 + Math.floor(random() * 10), Math.floor(random() * 24))).toISOString(),
      requiredEvaluators: random() < 0.5 ? ['a.v1'] : random() < 0.5 ? ['a.v1', 'b.v1'] : [],
      outcome: random() < 0.1 ? null : 'completed',
      labels: {
        model: pick(['m1', 'm2', null]),
        trial: String(1 + Math.floor(random() * 3)),
        metadata: random() < 0.8 ? { harness_config: pick(['A', 'B']) } : {},
      } as never,
    });
    const evaluations = Array.from({ length: Math.floor(random() * 5) }, () =>
      storedEvaluation(
        {
          evaluator: pick(['a.v1', 'b.v1']),
          status: pick(STATUSES),
          score: random() < 0.6 ? Math.round(random() * 100) / 100 : null,
          turnId: random() < 0.2 ? 'turn-1' : null,
          subjectDigest: pick(['a', 'b']).repeat(64),
          createdAt: new Date(Date.UTC(2026, 2, 11, 0, 0, Math.floor(random() * 50))).toISOString(),
          // An evaluation's own case: one execution's rows then count under two cases.
          ...(random() < 0.15 ? { caseId: `case-${Math.floor(random() * 8)}` } : {}),
        },
        { tool: pick(['t1', 't2', null]) },
        execution,
      ),
    );
    const linkedFromAttempt = random() < 0.5 ? [execution.executionId] : [];
    for (const store of stores) {
      await store.saveAttempt({ ...attempt, executionIds: linkedFromAttempt });
      await store.createExecution(execution);
      // Saved concurrently, as Jest workers do: the Postgres writer batches them into one transaction.
      await Promise.all(evaluations.map((evaluation) => store.saveEvaluation(evaluation)));
    }
  }
}

/** Queries over a generated history touching every path of the SQL stores' aggregation. */
export const GENERATED_HISTORY_QUERIES: readonly AggregationQuery[] = [
  { filters: { evaluator: ['a.v1'] } },
  { groupBy: ['evaluator', 'runId'] },
  { filters: { evaluator: ['a.v1'] }, groupBy: ['runId'] },
  { filters: { evaluator: ['a.v1'], runId: ['run-a'] }, groupBy: ['metadata.harness_config', 'time.day'] },
  { filters: { evaluator: ['b.v1'] }, groupBy: ['caseId', 'trial'] },
  { filters: { evaluator: ['a.v1'], model: ['m1', null] }, groupBy: ['time.week', 'tool'] },
  { filters: { evaluator: ['a.v1'], status: ['passed', 'error'] }, groupBy: ['turnId'] },
  { filters: { evaluator: ['a.v1'], 'metadata.harness_config': ['B', null] }, groupBy: ['executionId'] },
  { filters: { evaluator: ['b.v1'], tool: ['t1'] } },
  { groupBy: ['evaluator', 'status'] },
  {
    filters: { evaluator: ['a.v1'] },
    groupBy: ['time.hour'],
    from: '2026-03-03T00:00:00Z',
    to: '2026-03-07T00:00:00Z',
  },
];
