// A child process that writes into one SQLite results file, for the concurrency and crash tests.
//   node storeWriter.js evaluations <db> <worker> <count>   save <count> evaluations, print "done <n>"
//   node storeWriter.js executions <db> <worker>            create+finish executions forever,
//                                                           printing "committed <id>" after each commit
'use strict';
require('./registerTypeScript');
const { SQLiteExecutionStore } = require('../SQLiteExecutionStore.ts');
const { TraceResult } = require('../../../core/src/trace/TraceResult.ts');

const [mode, dbPath, worker, countText] = process.argv.slice(2);
const hex = (n) => n.toString(16).padStart(32, '0');

function execution(executionId, createdAt) {
  return {
    executionId,
    runId: 'run-concurrency',
    suiteName: 'concurrency',
    caseId: `case-${worker}`,
    attemptId: null,
    kind: 'direct',
    spec: { kind: 'direct' },
    servers: [],
    labels: {
      runId: 'run-concurrency',
      suiteName: 'concurrency',
      caseId: `case-${worker}`,
      server: 'catalog',
      transport: 'stdio',
      harness: null,
      model: null,
      trial: null,
      matrixId: null,
      metadata: { worker },
    },
    requiredEvaluators: [],
    createdAt,
    finishedAt: null,
    outcome: null,
    snapshot: {},
  };
}

function trace(executionId, at) {
  const event = (sequence, kind, payload) => ({
    schemaVersion: 1,
    eventId: `evt-${executionId}-${sequence}`,
    sequence,
    kind,
    executionId,
    timestamp: at,
    offsetMs: sequence,
    phase: 'terminal',
    origin: 'normalized',
    payload,
  });
  const events = [event(0, 'execution.created', { traceId: `trace-${executionId.slice(5)}` })];
  for (let i = 1; i <= 20; i += 1) events.push(event(i, 'diagnostic', { note: 'x'.repeat(200), i }));
  events.push(
    event(21, 'execution.finished', {
      outcome: 'completed',
      completeness: 'partial',
      limitations: ['capture_incomplete'],
    }),
  );
  return new TraceResult({
    traceId: `trace-${executionId.slice(5)}`,
    executionId,
    completeness: 'partial',
    limitations: ['capture_incomplete'],
    events,
  });
}

async function writeEvaluations(store, count) {
  const executionId = `exec-${hex(Number(worker) + 1)}`;
  await store.createExecution(execution(executionId, new Date().toISOString()));
  const labels = {
    runId: 'run-concurrency',
    suiteName: 'concurrency',
    caseId: `case-${worker}`,
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
  };
  const chunk = 50;
  for (let start = 0; start < count; start += chunk) {
    const saves = [];
    for (let i = start; i < Math.min(count, start + chunk); i += 1) {
      saves.push(
        store.saveEvaluation({
          result: {
            evaluationId: `eval-w${worker}-${i}`,
            evaluator: 'concurrency.v1',
            status: i % 3 === 0 ? 'failed' : 'passed',
            score: null,
            rationale: 'ok',
            metrics: {},
            required: false,
            executionId,
            turnId: null,
            caseId: null,
            subjectDigest: hex(i).padStart(64, '0'),
            createdAt: new Date().toISOString(),
            provenance: {},
            metadata: {},
          },
          labels,
        }),
      );
    }
    await Promise.all(saves);
  }
  process.stdout.write(`done ${count}\n`);
}

async function writeExecutionsForever(store) {
  for (let n = 0; ; n += 1) {
    const executionId = `exec-${hex(Number(worker) * 1_000_000 + n)}`;
    const at = new Date().toISOString();
    await store.createExecution(execution(executionId, at));
    const t = trace(executionId, at);
    await store.finishExecution({
      executionId,
      outcome: 'completed',
      finishedAt: at,
      snapshot: { n },
      trace: t,
      evidence: [],
    });
    process.stdout.write(`committed ${executionId}\n`);
  }
}

async function main() {
  const store = new SQLiteExecutionStore(dbPath);
  if (mode === 'evaluations') await writeEvaluations(store, Number(countText));
  else if (mode === 'executions') await writeExecutionsForever(store);
  else throw new Error(`unknown mode ${mode}`);
  await store.close();
}

main().catch((error) => {
  process.stderr.write(`writer ${worker} failed: ${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
