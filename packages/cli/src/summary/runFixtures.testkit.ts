// Seeds realistic runs into a store (in-memory or SQLite) for the summary, baseline, feedback and report tests.
import type {
  AttemptOutcome,
  EvaluationResult,
  EvaluationStatus,
  ExecutionStore,
  JsonObject,
  RunRecord,
} from '@sf-m3/core';
import { newId } from '@sf-m3/core/internal';
import { executionRecord } from '@sf-m3/test-utils/store';
import { Redactor } from '../../../core/src/redaction/Redactor';
import { TraceRecorder } from '../../../core/src/trace/TraceRecorder';

/** One test to seed: its suite, name, outcome and the evaluations its execution produced. */
export interface SeedTest {
  suite: string;
  fullName: string;
  outcome: AttemptOutcome;
  retryIndex?: number;
  caseId?: string;
  failureMessage?: string;
  evaluations?: {
    evaluator: string;
    status: EvaluationStatus;
    required?: boolean;
    rationale?: string;
    metadata?: JsonObject;
  }[];
  requiredEvaluators?: string[];
  /** An agent execution's labels (a `test.m3` expansion's harness, model and trial). */
  agent?: { harness: string; model: string; trial: number };
  /** The MCP revision an era matrix ran the test under: labels the execution `metadata.protocolVersion`. */
  protocolVersion?: string;
  /**
   * The execution ended `timed_out`: with the deadline diagnostic its trace records, or `'no trace'`
   * for one whose trace was never finalized.
   */
  timeout?: { code: string; stage: string; operation: string; elapsedMs: number; timeoutMs: number } | 'no trace';
}

/** Finishes a seeded execution `timed_out`, its trace holding the deadline diagnostic. */
async function finishTimedOut(
  store: ExecutionStore,
  executionId: string,
  diagnostic: Exclude<SeedTest['timeout'], 'no trace' | undefined>,
): Promise<void> {
  const recorder = new TraceRecorder({ executionId, redactor: new Redactor([]) });
  recorder.record('execution.created', {
    phase: 'preflight',
    payload: { traceId: newId('trace'), runtime: 'direct', runId: null, suiteName: null, caseId: null, servers: [] },
  });
  recorder.record('diagnostic', {
    phase: 'cleanup',
    origin: 'normalized',
    direction: 'internal',
    payload: { ...diagnostic, message: `deadline of ${diagnostic.timeoutMs} ms passed during ${diagnostic.stage}` },
  });
  const trace = recorder.finish('timed_out');
  await store.finishExecution({
    executionId,
    outcome: 'timed_out',
    finishedAt: instant(),
    snapshot: { lifecycle: 'finished', outcome: 'timed_out' },
    trace,
    evidence: [...recorder.evidence],
  });
}

let tick = 0;
function instant(): string {
  tick += 1;
  return new Date(Date.UTC(2026, 10, 29, 12, 0, 0) + tick * 1000).toISOString();
}

/** Saves a finished run with its suites, attempts, executions and evaluations; returns the run id. */
export async function seedRun(
  store: ExecutionStore,
  tests: SeedTest[],
  options: { runId?: string; status?: RunRecord['status'] } = {},
): Promise<string> {
  const runId = options.runId ?? newId('run');
  const startedAt = instant();
  const counts = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  for (const test of tests) counts[test.outcome] += 1;
  await store.saveRun({
    runId,
    label: null,
    startedAt,
    finishedAt: null,
    status: 'running',
    argv: ['test'],
    counts,
  });
  for (const test of tests) {
    const suite = await store.registerSuite(test.suite);
    const attemptId = newId('attempt');
    const executionId = newId('exec');
    const seeded = executionRecord({
      executionId,
      runId,
      suiteName: suite.name,
      caseId: test.caseId ?? null,
      attemptId,
      requiredEvaluators: test.requiredEvaluators ?? [],
      createdAt: instant(),
      finishedAt: test.timeout === undefined ? instant() : null,
      outcome: test.timeout === undefined ? 'completed' : test.timeout === 'no trace' ? 'timed_out' : null,
      snapshot: { lifecycle: 'finished' },
      ...(test.agent && {
        kind: 'agent' as const,
        labels: {
          runId,
          suiteName: suite.name,
          caseId: test.caseId ?? null,
          server: 'catalog',
          transport: 'stdio',
          harness: test.agent.harness,
          model: test.agent.model,
          trial: String(test.agent.trial),
          matrixId: null,
          metadata: { harness_config: `${test.agent.harness}:${test.agent.model}`, trial: String(test.agent.trial) },
        },
      }),
    });
    const execution =
      test.protocolVersion === undefined
        ? seeded
        : {
            ...seeded,
            labels: {
              ...seeded.labels,
              metadata: { ...seeded.labels.metadata, protocolVersion: test.protocolVersion },
            },
          };
    await store.createExecution(execution);
    if (test.timeout !== undefined && test.timeout !== 'no trace') {
      await finishTimedOut(store, executionId, test.timeout);
    }
    await store.saveAttempt({
      attemptId,
      runId,
      testPath: `/project/tests/${test.suite}.test.ts`,
      fullName: test.fullName,
      caseId: test.caseId ?? null,
      suiteId: suite.suiteId,
      outcome: test.outcome,
      durationMs: 5,
      failureMessage: test.failureMessage ?? null,
      retryIndex: test.retryIndex ?? 0,
      executionIds: [executionId],
      startedAt: instant(),
      finishedAt: instant(),
    });
    for (const [index, evaluation] of (test.evaluations ?? []).entries()) {
      const result: EvaluationResult = {
        evaluationId: newId('eval'),
        evaluator: evaluation.evaluator,
        status: evaluation.status,
        score: null,
        rationale: evaluation.rationale ?? null,
        metrics: {},
        required: evaluation.required ?? false,
        executionId,
        turnId: null,
        caseId: test.caseId ?? null,
        subjectDigest: String(index).padStart(64, '0'),
        createdAt: instant(),
        provenance: { kind: 'matcher' },
        metadata: evaluation.metadata ?? {},
      };
      await store.saveEvaluation({
        result,
        labels: {
          ...execution.labels,
          judgeModel: null,
          rubricId: null,
          tool: null,
        },
      });
    }
  }
  const failed = tests.some((t) => t.outcome === 'failed');
  await store.saveRun({
    runId,
    label: null,
    startedAt,
    finishedAt: instant(),
    status: options.status ?? (failed ? 'failed' : 'passed'),
    argv: ['test'],
    counts,
  });
  return runId;
}
