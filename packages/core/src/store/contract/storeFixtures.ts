import { newId } from '../../ids';
import { Redactor } from '../../redaction/Redactor';
import type { EvaluationLabels, EvaluationResult } from '../../evaluation/EvaluationResult';
import type { ExecutionOutcome } from '../../enums';
import type { TraceResult } from '../../trace/TraceResult';
import { TraceRecorder } from '../../trace/TraceRecorder';
import type { StoredEvaluation, FinishedExecution } from '../ExecutionStore';
import type { AttemptRecord, ExecutionRecord } from '../records';

/** Shared builders for store tests: realistic records with every field filled. */

export const EMPTY_LABELS: EvaluationLabels = {
  runId: null,
  suiteName: null,
  caseId: null,
  server: null,
  tool: null,
  transport: null,
  harness: null,
  model: null,
  trial: null,
  judgeModel: null,
  rubricId: null,
  matrixId: null,
  metadata: {},
};

/** An execution record (not finished) with optional overrides. */
export function executionRecord(overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  const { labels, ...rest } = overrides;
  const base: ExecutionRecord = {
    executionId: newId('exec'),
    runId: null,
    suiteName: null,
    caseId: null,
    attemptId: null,
    kind: 'direct',
    spec: { kind: 'direct', operation: 'callTool' },
    servers: [{ name: 'catalog', transport: 'stdio', target: 'node' }],
    labels: {
      runId: rest.runId ?? null,
      suiteName: rest.suiteName ?? null,
      caseId: rest.caseId ?? null,
      server: 'catalog',
      transport: 'stdio',
      harness: null,
      model: null,
      trial: null,
      matrixId: null,
      metadata: {},
    },
    requiredEvaluators: [],
    createdAt: '2026-03-02T10:15:00.000Z',
    finishedAt: null,
    outcome: null,
    snapshot: { lifecycle: 'created' },
  };
  return { ...base, ...rest, labels: { ...base.labels, ...labels, metadata: { ...labels?.metadata } } };
}

/** An attempt record with optional overrides. */
export function attemptRecord(overrides: Partial<AttemptRecord> & { runId: string }): AttemptRecord {
  return {
    attemptId: newId('attempt'),
    testPath: '/project/tests/catalog.test.ts',
    fullName: 'catalog normalizes a customer',
    caseId: null,
    suiteId: null,
    outcome: 'passed',
    durationMs: 12,
    failureMessage: null,
    retryIndex: 0,
    executionIds: [],
    startedAt: '2026-03-02T10:14:59.000Z',
    finishedAt: '2026-03-02T10:15:01.000Z',
    ...overrides,
  };
}

let clockTick = 0;

/** A stored evaluation row; labels default from `execution` when given. */
export function storedEvaluation(
  fields: Partial<EvaluationResult> & { evaluator: string },
  labels: Partial<EvaluationLabels> = {},
  execution?: ExecutionRecord,
): StoredEvaluation {
  clockTick += 1;
  const result: EvaluationResult = {
    evaluationId: newId('eval'),
    status: 'passed',
    score: null,
    rationale: 'ok',
    metrics: {},
    required: false,
    executionId: execution?.executionId ?? null,
    turnId: null,
    caseId: execution?.caseId ?? null,
    subjectDigest: 'a'.repeat(64),
    createdAt: new Date(Date.UTC(2026, 2, 2, 11, 0, 0) + clockTick * 1000).toISOString(),
    provenance: { kind: 'deterministic' },
    metadata: {},
    ...fields,
  };
  const fromExecution: Partial<EvaluationLabels> = execution ? { ...execution.labels } : {};
  return {
    result,
    labels: {
      ...EMPTY_LABELS,
      ...fromExecution,
      ...labels,
      metadata: { ...fromExecution.metadata, ...labels.metadata },
    },
  };
}

/** A finalized direct trace for `executionId`, with one tool call and one raw frame of evidence. */
export function finishedTrace(
  executionId: string,
  outcome: ExecutionOutcome = 'completed',
): {
  trace: TraceResult;
  finished: FinishedExecution;
} {
  const recorder = new TraceRecorder({ executionId, redactor: new Redactor(['canary-secret']) });
  recorder.record('execution.created', {
    phase: 'preflight',
    payload: { traceId: newId('trace'), runtime: 'direct', runId: null, suiteName: null, caseId: null, servers: [] },
  });
  recorder.record('mcp.request', {
    direction: 'client_to_server',
    server: 'catalog',
    jsonrpcId: 1,
    phase: 'mcp_call',
    payload: { method: 'tools/call', params: { name: 'normalize', arguments: { name: 'Ada' } } },
    raw: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'normalize' } }),
  });
  recorder.record('mcp.response', {
    direction: 'server_to_client',
    server: 'catalog',
    jsonrpcId: 1,
    phase: 'mcp_call',
    payload: { result: { content: [{ type: 'text', text: 'ADA' }], isError: false } },
  });
  const trace = recorder.finish(outcome);
  return {
    trace,
    finished: {
      executionId,
      outcome,
      finishedAt: '2026-03-02T10:15:02.000Z',
      snapshot: { lifecycle: 'finished', outcome },
      trace,
      evidence: [...recorder.evidence],
      sessions: [],
      turns: [],
    },
  };
}
