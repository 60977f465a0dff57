// The cost of the PostgreSQL store against the best raw use of `pg` on the same server, on the
// built dist (`npm run bench` builds first), in a throwaway cluster (initdb + pg_ctl, removed after):
//  1. 100 000 evaluations saved through PostgresExecutionStore (concurrent saves, batched into
//     transactions under per-lineage advisory locks; lineages, is_latest and indexes maintained)
//     versus raw multi-row inserts (`INSERT … SELECT FROM json_to_recordset($1)`, 2 000 rows a
//     statement, one transaction) of the same rows into a plain table.
//  2. aggregateEvaluations grouped by suite over 1 000 000 evaluations versus a raw `GROUP BY
//     suite_name` computing the same counts (distinct executions and cases included).
// Without initdb/pg_ctl (or when the cluster cannot start) it prints one line saying why and skips.
'use strict';
const crypto = require('node:crypto');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'packages/store-postgres/dist');
const SAVES = 100_000;
const AGGREGATE_ROWS = 1_000_000;
const EVALUATOR = 'bench.answer.v1';
const SUITES = 20;
const BATCH = 2_000;

const hex = (n) => n.toString(16).padStart(32, '0');

async function measure(work) {
  const started = process.hrtime.bigint();
  const value = await work();
  return { wall: Number(process.hrtime.bigint() - started) / 1e6, value };
}
const best = (timings) => ({ wall: Math.min(...timings.map((t) => t.wall)), value: timings[0].value });

function evaluation(i, executionId) {
  return {
    result: {
      evaluationId: `eval-${hex(i)}`,
      evaluator: EVALUATOR,
      status: i % 4 === 0 ? 'failed' : 'passed',
      score: (i % 10) / 10,
      rationale: 'ok',
      metrics: {},
      required: false,
      executionId,
      turnId: null,
      caseId: null,
      subjectDigest: crypto.createHash('sha256').update(String(i)).digest('hex'),
      createdAt: new Date(Date.UTC(2026, 2, 1) + i).toISOString(),
      provenance: { kind: 'deterministic' },
      metadata: {},
    },
    labels: {
      runId: 'run-bench',
      suiteName: `suite-${i % SUITES}`,
      caseId: `case-${i % 500}`,
      server: 'catalog',
      tool: 'normalize',
      transport: 'stdio',
      harness: null,
      model: null,
      trial: String(i % 3),
      judgeModel: null,
      rubricId: null,
      matrixId: null,
      metadata: { harness_config: i % 2 === 0 ? 'A' : 'B' },
    },
  };
}

function execution(executionId) {
  const labels = {
    runId: 'run-bench',
    suiteName: 'suite-0',
    caseId: 'case-0',
    server: 'catalog',
    transport: 'stdio',
    harness: null,
    model: null,
    trial: null,
    matrixId: null,
    metadata: {},
  };
  return {
    executionId,
    runId: 'run-bench',
    suiteName: 'suite-0',
    caseId: 'case-0',
    attemptId: null,
    kind: 'direct',
    spec: { kind: 'direct' },
    servers: [],
    labels,
    requiredEvaluators: [],
    createdAt: new Date().toISOString(),
    finishedAt: null,
    outcome: null,
    snapshot: {},
  };
}

async function saveThroughStore(PostgresExecutionStore, url, rows) {
  const store = new PostgresExecutionStore(url);
  await store.createExecution(execution(`exec-${hex(1)}`));
  const timing = await measure(async () => {
    for (let start = 0; start < SAVES; start += 1_000) {
      await Promise.all(rows.slice(start, start + 1_000).map((row) => store.saveEvaluation(row)));
    }
  });
  await store.close();
  return timing;
}

async function saveRaw(Client, url, rows) {
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE TABLE raw_evaluations (evaluation_id TEXT PRIMARY KEY, evaluator TEXT, execution_id TEXT,
    turn_id TEXT, subject_digest TEXT, status TEXT, score FLOAT8, required BOOLEAN, created_at TEXT, run_id TEXT,
    suite_name TEXT, case_id TEXT, server TEXT, tool TEXT, transport TEXT, trial TEXT, metadata JSONB, result_json TEXT)`);
  const timing = await measure(async () => {
    await client.query('BEGIN');
    for (let start = 0; start < rows.length; start += BATCH) {
      const batch = rows.slice(start, start + BATCH).map(({ result: r, labels: l }) => ({
        evaluation_id: r.evaluationId,
        evaluator: r.evaluator,
        execution_id: r.executionId,
        turn_id: r.turnId,
        subject_digest: r.subjectDigest,
        status: r.status,
        score: r.score,
        required: r.required,
        created_at: r.createdAt,
        run_id: l.runId,
        suite_name: l.suiteName,
        case_id: l.caseId,
        server: l.server,
        tool: l.tool,
        transport: l.transport,
        trial: l.trial,
        metadata: l.metadata,
        result_json: JSON.stringify(r),
      }));
      await client.query(
        `INSERT INTO raw_evaluations SELECT * FROM json_to_recordset($1::json) AS r(evaluation_id TEXT, evaluator TEXT,
          execution_id TEXT, turn_id TEXT, subject_digest TEXT, status TEXT, score FLOAT8, required BOOLEAN, created_at TEXT,
          run_id TEXT, suite_name TEXT, case_id TEXT, server TEXT, tool TEXT, transport TEXT, trial TEXT, metadata JSONB,
          result_json TEXT)`,
        [JSON.stringify(batch)],
      );
    }
    await client.query('COMMIT');
  });
  await client.end();
  return timing;
}

async function aggregateComparison(PostgresExecutionStore, Client, url) {
  const store = new PostgresExecutionStore(url);
  await store.open();
  const client = new Client({ connectionString: url });
  await client.connect();
  // The store's own schema, filled in SQL: latest rows of 100 000 executions in 5 000 cases.
  await client.query(`INSERT INTO evaluations (evaluation_id, evaluator, lineage_id, subject_digest, execution_id,
      turn_id, status, score, required, created_at, execution_created_at, run_id, suite_name, case_id, server, tool,
      transport, trial, metadata, result_json, is_latest)
    SELECT 'eval-' || lpad(to_hex(i), 32, '0'), '${EVALUATOR}', i, lpad(to_hex(i), 64, '0'),
      'exec-' || lpad(to_hex(i / 10), 32, '0'), NULL, CASE WHEN i % 4 = 0 THEN 'failed' ELSE 'passed' END,
      (i % 10) / 10.0, FALSE, '2026-03-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', 'run-bench',
      'suite-' || ((i / 10) % ${SUITES}), 'case-' || ((i / 10) % 5000), 'catalog', 'normalize', 'stdio',
      (i % 3)::text, '{}', '{}', TRUE
    FROM generate_series(0, ${AGGREGATE_ROWS - 1}) AS i`);
  await client.query('VACUUM ANALYZE evaluations');
  const query = { filters: { evaluator: [EVALUATOR] }, groupBy: ['suiteName'] };
  await store.aggregateEvaluations(query);
  const ours = best([
    await measure(() => store.aggregateEvaluations(query)),
    await measure(() => store.aggregateEvaluations(query)),
    await measure(() => store.aggregateEvaluations(query)),
  ]);
  const sql = `SELECT suite_name, COUNT(*), COUNT(*) FILTER (WHERE status = 'passed'), COUNT(*) FILTER (WHERE status = 'failed'),
      COUNT(*) FILTER (WHERE status = 'inconclusive'), COUNT(*) FILTER (WHERE status = 'error'),
      COUNT(*) FILTER (WHERE status = 'not_run'), AVG(score), COUNT(score),
      COUNT(DISTINCT execution_id), COUNT(DISTINCT case_id)
    FROM evaluations WHERE is_latest AND evaluator = $1 GROUP BY suite_name`;
  await client.query(sql, [EVALUATOR]);
  const raw = best([
    await measure(() => client.query(sql, [EVALUATOR])),
    await measure(() => client.query(sql, [EVALUATOR])),
    await measure(() => client.query(sql, [EVALUATOR])),
  ]);
  await client.end();
  await store.close();
  if (ours.value.totals.evaluationCount !== AGGREGATE_ROWS || raw.value.rows.length !== ours.value.groups.length) {
    throw new Error(
      `aggregate mismatch: ${ours.value.totals.evaluationCount} rows, ${ours.value.groups.length} groups`,
    );
  }
  return { ours, raw };
}

async function run() {
  let cluster;
  try {
    // The throwaway cluster is test setup (the private @sf-m3/test-utils), loaded from its source.
    require(path.join(ROOT, 'scripts/registerTypeScript'));
    const { ThrowawayCluster } = require(path.join(ROOT, 'packages/test-utils/src/postgres/ThrowawayCluster.ts'));
    cluster = await ThrowawayCluster.start();
  } catch (error) {
    process.stdout.write(
      `store-postgres bench skipped: no PostgreSQL cluster could start (${error.message.split('\n')[0]})\n`,
    );
    return;
  }
  try {
    const { PostgresExecutionStore } = require(DIST);
    const { Client } = require('pg');
    const rows = Array.from({ length: SAVES }, (_, i) => evaluation(i, `exec-${hex(1)}`));
    const saves = [];
    for (let round = 0; round < 2; round += 1) {
      const ours = await saveThroughStore(PostgresExecutionStore, await cluster.createSchema(), rows);
      const raw = await saveRaw(Client, await cluster.createSchema(), rows);
      saves.push({ ours: ours.wall, raw: raw.wall });
    }
    const save = saves.reduce((a, b) => (a.ours / a.raw <= b.ours / b.raw ? a : b));
    const aggregate = await aggregateComparison(PostgresExecutionStore, Client, await cluster.createSchema());
    const line = (what, ours, raw, against) =>
      `${what.padEnd(44)} ${ours.toFixed(0).padStart(8)} ms  vs ${raw.toFixed(0).padStart(8)} ms ${against}  ratio ${(ours / raw).toFixed(2)}x\n`;
    process.stdout.write('PostgreSQL (throwaway cluster, fsync off), best of runs:\n');
    process.stdout.write(line('save 100 000 evaluations', save.ours, save.raw, 'raw multi-row insert'));
    process.stdout.write(
      line('aggregate 1 000 000 evaluations by suite', aggregate.ours.wall, aggregate.raw.wall, 'raw GROUP BY'),
    );
  } finally {
    await cluster.stop();
  }
}

module.exports = { run };
if (require.main === module) run();
