// The worked aggregation example of the store contract (contract §10), seeded into any store: the
// contract suite checks its report, and the viewer's tests read it back.
import type { ExecutionStore } from '../ExecutionStore';
import type { AggregationReport } from '../AggregationQuery';
import type { ExecutionRecord } from '../records';
import { attemptRecord, executionRecord, finishedTrace, storedEvaluation } from './storeFixtures';

/**
 * Seeds the worked example (upstream-store-eval.md §5.5) and returns the report of its query: evaluator
 * `example.math.v1` required by the spec, harness configs A (e1, e2) and B (e3, e4, e5).
 */
export async function seedWorkedExample(store: ExecutionStore): Promise<AggregationReport> {
  const runId = 'run-worked-example';
  const evaluator = 'example.math.v1';
  const cases = ['case-1', 'case-2', 'case-1', 'case-2', 'case-3'];
  const configs = ['A', 'A', 'B', 'B', 'B'];
  const executions: ExecutionRecord[] = [];
  for (let i = 0; i < 5; i += 1) {
    const running = i === 4;
    const attempt = attemptRecord({
      runId,
      outcome: running ? null : 'passed',
      finishedAt: running ? null : '2026-03-02T10:20:00.000Z',
    });
    const execution = executionRecord({
      runId,
      caseId: cases[i]!,
      attemptId: attempt.attemptId,
      requiredEvaluators: [evaluator],
      labels: { metadata: { harness_config: configs[i]! } } as unknown as ExecutionRecord['labels'],
    });
    await store.saveAttempt({ ...attempt, executionIds: [execution.executionId] });
    await store.createExecution(execution);
    await store.finishExecution(finishedTrace(execution.executionId).finished);
    executions.push(execution);
  }
  // A distractor in another run and under another evaluator: filtered out.
  await store.saveEvaluation(storedEvaluation({ evaluator: 'other.v1', status: 'failed' }, {}, executions[0]));
  const [e1, e2, e3] = executions as [ExecutionRecord, ExecutionRecord, ExecutionRecord];
  await store.saveEvaluation(storedEvaluation({ evaluator, status: 'passed', score: 1 }, {}, e1));
  await store.saveEvaluation(storedEvaluation({ evaluator, status: 'failed', score: 0 }, {}, e2));
  await store.saveEvaluation(storedEvaluation({ evaluator, status: 'passed', score: 1 }, {}, e2)); // re-evaluated
  await store.saveEvaluation(storedEvaluation({ evaluator, status: 'error', score: null }, {}, e3));
  const foreign = executionRecord({ runId: 'run-other', caseId: 'case-1', requiredEvaluators: [evaluator] });
  await store.createExecution(foreign);
  await store.saveEvaluation(storedEvaluation({ evaluator, status: 'failed' }, {}, foreign));
  return store.aggregateEvaluations({
    filters: { evaluator: [evaluator], runId: [runId] },
    groupBy: ['metadata.harness_config'],
  });
}
