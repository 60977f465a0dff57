'use strict';
// Wrote schema-v2.sqlite.gz with the schema-version-2 store (commit b345072, its built dist):
// `node writeSchemaV2.js OUT.sqlite` at that commit. Evaluations with superseded lineages (one saved
// out of order), a sticky required lineage, a missing required evaluator, two runs.
// schema-v2.expected.json is what that store's aggregateEvaluations/listEvaluations returned.
const fs = require('fs'),
  zlib = require('zlib'),
  path = require('path');
const ROOT = path.resolve(__dirname, '../../../..');
const { SQLiteExecutionStore } = require(ROOT + '/packages/store-sqlite/dist');
const out = process.argv[2];
const labels = (runId, suiteName, caseId) => ({
  runId,
  suiteName,
  caseId,
  server: 'catalog',
  tool: 'quote',
  transport: 'stdio',
  harness: null,
  model: null,
  trial: '1',
  judgeModel: null,
  rubricId: null,
  matrixId: null,
  metadata: { harness_config: 'A' },
});
const exec = (executionId, runId, caseId, required, createdAt) => ({
  executionId,
  runId,
  suiteName: 'suite-a',
  caseId,
  attemptId: null,
  kind: 'direct',
  spec: { kind: 'direct', operation: 'callTool' },
  servers: [{ name: 'catalog', transport: 'stdio', target: 'node' }],
  labels: {
    runId,
    suiteName: 'suite-a',
    caseId,
    server: 'catalog',
    transport: 'stdio',
    harness: null,
    model: null,
    trial: '1',
    matrixId: null,
    metadata: { harness_config: 'A' },
  },
  requiredEvaluators: required,
  createdAt,
  finishedAt: null,
  outcome: null,
  snapshot: {},
});
const evaluation = (id, evaluator, executionId, subject, status, score, required, createdAt, runId, caseId) => ({
  result: {
    evaluationId: id,
    evaluator,
    status,
    score,
    rationale: 'r',
    metrics: {},
    required,
    executionId,
    turnId: null,
    caseId: null,
    subjectDigest: subject.repeat(64).slice(0, 64),
    createdAt,
    provenance: { kind: 'deterministic' },
    metadata: {},
  },
  labels: labels(runId, 'suite-a', caseId),
});
(async () => {
  fs.rmSync(out, { force: true });
  const store = new SQLiteExecutionStore(out);
  await store.saveRun({ runId: 'run-1', startedAt: '2026-03-01T10:00:00.000Z', status: 'finished' });
  await store.saveRun({ runId: 'run-2', startedAt: '2026-03-02T10:00:00.000Z', status: 'finished' });
  await store.createExecution(exec('exec-1', 'run-1', 'case-a', ['v2.required.v1'], '2026-03-01T10:01:00.000Z'));
  await store.createExecution(exec('exec-2', 'run-2', 'case-a', [], '2026-03-02T10:01:00.000Z'));
  await store.createExecution(exec('exec-3', 'run-2', 'case-b', [], '2026-03-02T10:02:00.000Z'));
  const rows = [
    // lineage a of exec-1: required, then an advisory later re-evaluation (passed): stays required
    evaluation(
      'eval-01',
      'v2.answer.v1',
      'exec-1',
      'a',
      'failed',
      0.2,
      true,
      '2026-03-01T10:02:00.000Z',
      'run-1',
      'case-a',
    ),
    evaluation(
      'eval-02',
      'v2.answer.v1',
      'exec-1',
      'a',
      'passed',
      0.9,
      false,
      '2026-03-01T10:03:00.000Z',
      'run-1',
      'case-a',
    ),
    // lineage b of exec-2: a later row saved first, then an older one (latest stays eval-03)
    evaluation(
      'eval-03',
      'v2.answer.v1',
      'exec-2',
      'b',
      'passed',
      1,
      false,
      '2026-03-02T10:05:00.000Z',
      'run-2',
      'case-a',
    ),
    evaluation(
      'eval-04',
      'v2.answer.v1',
      'exec-2',
      'b',
      'error',
      null,
      false,
      '2026-03-02T10:04:00.000Z',
      'run-2',
      'case-a',
    ),
    evaluation(
      'eval-05',
      'v2.answer.v1',
      'exec-3',
      'c',
      'failed',
      0,
      false,
      '2026-03-02T10:06:00.000Z',
      'run-2',
      'case-b',
    ),
  ];
  for (const row of rows) await store.saveEvaluation(row);
  const { TraceRecorder } = require(ROOT + '/packages/core/dist/trace/TraceRecorder');
  const { Redactor } = require(ROOT + '/packages/core/dist/redaction/Redactor');
  for (const executionId of ['exec-1', 'exec-3']) {
    // terminal executions, so exec-1's missing required evaluator counts as missing
    const recorder = new TraceRecorder({ executionId, redactor: new Redactor([]) });
    recorder.record('execution.created', {
      phase: 'preflight',
      payload: {
        traceId: 'trace-' + executionId,
        runtime: 'direct',
        runId: null,
        suiteName: null,
        caseId: null,
        servers: [],
      },
    });
    const trace = recorder.finish('completed');
    await store.finishExecution({
      executionId,
      outcome: 'completed',
      finishedAt: '2026-03-02T11:00:00.000Z',
      snapshot: { lifecycle: 'finished' },
      trace,
      evidence: [...recorder.evidence],
      sessions: [],
      turns: [],
    });
  }
  await store.close();
  fs.writeFileSync(out + '.gz', zlib.gzipSync(fs.readFileSync(out)));
})();
