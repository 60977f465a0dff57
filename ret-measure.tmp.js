const { SQLiteExecutionStore, mergeResultsDatabases } = require('./packages/store-sqlite/dist');
const { TraceRecorder } = require('./packages/core/dist/trace/TraceRecorder'); const { Redactor } = require('./packages/core/dist');
const fs = require('fs'); const os = require('os'); const path = require('path');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ret-measure-'));
let k = 0;
async function seed(file, runs, perRun, prefix) {
  const store = new SQLiteExecutionStore(file);
  for (let r = 0; r < runs; r++) {
    const runId = `${prefix}-run-${r}`;
    const suite = await store.registerSuite('suite');
    await store.saveRun({ runId, label: null, startedAt: new Date(Date.UTC(2026, 0, 1) + r * 3600e3).toISOString(), finishedAt: null, status: 'passed', argv: [], counts: { passed: perRun, failed: 0, skipped: 0, todo: 0 } });
    for (let i = 0; i < perRun; i++) {
      const executionId = `exec-${prefix}-${r}-${i}`;
      const attemptId = `att-${prefix}-${r}-${i}`;
      await store.saveAttempt({ attemptId, runId, testPath: 't.js', fullName: `t ${i}`, caseId: `c${i}`, suiteId: suite.suiteId, outcome: 'passed', durationMs: 1, failureMessage: null, retryIndex: 0, executionIds: [executionId], startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:01.000Z' });
      await store.createExecution({ executionId, runId, suiteName: 'suite', caseId: `c${i}`, attemptId, kind: 'direct', spec: {}, servers: [], labels: { runId, suiteName: 'suite', caseId: `c${i}`, server: 's', transport: 'stdio', harness: null, model: null, trial: null, matrixId: null, metadata: {} }, requiredEvaluators: [], createdAt: '2026-01-01T00:00:00.000Z', finishedAt: null, outcome: null, snapshot: {} });
      const rec = new TraceRecorder({ executionId, redactor: new Redactor([]) });
      rec.record('execution.created', { phase: 'preflight', payload: { traceId: 'trace-' + executionId, runtime: 'direct', runId: null, suiteName: null, caseId: null, servers: [] } });
      for (let e = 0; e < 10; e++) rec.record('mcp.request', { direction: 'client_to_server', server: 's', jsonrpcId: e, phase: 'mcp_call', payload: { method: 'tools/call', params: { name: 'x', i: e } }, raw: JSON.stringify({ id: e, k: k++ }) });
      const trace = rec.finish('completed');
      await store.finishExecution({ executionId, outcome: 'completed', finishedAt: '2026-01-01T00:00:01.000Z', snapshot: {}, trace, evidence: [...rec.evidence] });
      for (let v = 0; v < 3; v++) store.saveEvaluation({ result: { evaluationId: `ev-${executionId}-${v}`, evaluator: `e${v}`, status: 'passed', score: 1, rationale: 'ok', metrics: {}, required: false, executionId, turnId: null, caseId: `c${i}`, subjectDigest: 'a'.repeat(64), createdAt: '2026-01-01T00:00:02.000Z', provenance: { kind: 'deterministic' }, metadata: {} }, labels: { runId, suiteName: 'suite', caseId: `c${i}`, server: 's', tool: 'x', transport: 'stdio', harness: null, model: null, trial: null, judgeModel: null, rubricId: null, matrixId: null, metadata: {} } });
    }
  }
  await store.close();
}
(async () => {
  const a = path.join(dir, 'a.sqlite'), b = path.join(dir, 'b.sqlite'), out = path.join(dir, 'out.sqlite');
  let t = Date.now(); await seed(a, 10, 200, 'a'); await seed(b, 10, 200, 'b'); console.log('seed ms', Date.now() - t, 'sizes', fs.statSync(a).size, fs.statSync(b).size);
  t = Date.now(); let r = await mergeResultsDatabases(out, [a, b]); console.log('merge ms', Date.now() - t, JSON.stringify(r.added), 'out bytes', fs.statSync(out).size);
  t = Date.now(); r = await mergeResultsDatabases(out, [a, b]); console.log('merge again ms', Date.now() - t, JSON.stringify(r.added));
  const store = new SQLiteExecutionStore(out);
  t = Date.now(); const p = await store.pruneRuns({ keepRuns: 5 }); console.log('prune ms', Date.now() - t, p.runIds.length, p.executionCount, p.evaluationCount, p.bytesBefore, p.bytesAfter, 'file', fs.statSync(out).size);
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
})().catch((e) => { console.error(e); process.exit(1); });
