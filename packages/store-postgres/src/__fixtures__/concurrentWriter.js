// A child process writing into one PostgreSQL history at the same time as its siblings:
//   node concurrentWriter.js <url> <worker> <count>
// saves <count> evaluations spread over 50 lineages that every worker shares (so writers contend
// for the same lineages), registers the suite every worker registers, and creates and finishes one
// execution of its own; prints "done <count>".
'use strict';
process.env.SF_M3_CORE_DIST = '1';
require('./registerTypeScript');
const { PostgresExecutionStore } = require('../PostgresExecutionStore.ts');
const { TraceResult } = require('@sf-m3/core');

const [url, worker, countText] = process.argv.slice(2);
const count = Number(countText);

function evaluation(i) {
  const executionId = `exec-shared-${i % 50}`;
  // Distinct instants across workers; ties (same second) are broken by the evaluation id.
  const createdAt = new Date(
    Date.UTC(2026, 2, 2, 10, 0, Math.floor(i / 50) % 60, (i * 7 + Number(worker)) % 1000),
  ).toISOString();
  return {
    result: {
      evaluationId: `eval-${worker}-${i}`,
      evaluator: 'concurrency.v1',
      executionId,
      turnId: null,
      subjectDigest: 'a'.repeat(64),
      status: i % 3 === 0 ? 'failed' : 'passed',
      score: null,
      required: i % 10 === 0,
      caseId: `case-${i % 50}`,
      createdAt,
      rationale: null,
      metrics: {},
      provenance: { kind: 'test' },
      metadata: {},
    },
    labels: {
      runId: 'run-concurrency',
      suiteName: 'concurrency',
      caseId: `case-${i % 50}`,
      server: null,
      tool: null,
      transport: null,
      harness: null,
      model: null,
      trial: null,
      judgeModel: null,
      rubricId: null,
      matrixId: null,
      metadata: { worker },
    },
  };
}

async function main() {
  const store = new PostgresExecutionStore(url);
  await store.registerSuite('shared suite');
  const executionId = `exec-own-${worker}`;
  await store.createExecution({
    executionId,
    runId: 'run-concurrency',
    suiteName: 'concurrency',
    caseId: null,
    attemptId: null,
    kind: 'direct',
    spec: { kind: 'direct' },
    servers: [],
    labels: {
      runId: 'run-concurrency',
      suiteName: 'concurrency',
      caseId: null,
      server: null,
      transport: null,
      harness: null,
      model: null,
      trial: null,
      matrixId: null,
      metadata: {},
    },
    requiredEvaluators: [],
    createdAt: new Date().toISOString(),
    finishedAt: null,
    outcome: null,
    snapshot: {},
  });
  for (let start = 0; start < count; start += 100) {
    const chunk = [];
    for (let i = start; i < Math.min(count, start + 100); i += 1) chunk.push(store.saveEvaluation(evaluation(i)));
    await Promise.all(chunk);
  }
  const trace = TraceResult.fromJSON({
    traceId: `trace-${worker}`,
    executionId,
    completeness: 'complete',
    limitations: [],
    events: [],
  });
  await store.finishExecution({
    executionId,
    outcome: 'completed',
    finishedAt: new Date().toISOString(),
    snapshot: {},
    trace,
    evidence: [],
  });
  await store.close();
  process.stdout.write(`done ${count}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
