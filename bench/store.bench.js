// The cost of the SQLite store, on the built dist (`npm run bench` builds first):
//  1. 100 000 evaluations saved through SQLiteExecutionStore (1 000 concurrent saveEvaluation
//     calls at a time, each resolving once its transaction commits: the write queue writes each
//     batch in one BEGIN IMMEDIATE transaction with multi-row INSERT … VALUES statements; label
//     columns, lineages and indexes maintained) versus the best raw `sqlite3` use of json_each: the
//     same rows and label columns, JSON-encoded by the caller, inserted with batched
//     `INSERT … SELECT … FROM json_each(?)` in ONE transaction into a plain table (the faster of
//     1 000-row and 10 000-row batches). Target <= 1.5x (issue 15). Raw per-row prepared inserts
//     and raw multi-row INSERT … VALUES are printed beside it for reference.
//  2. aggregateEvaluations grouped by suite over 1 000 000 evaluations versus a raw `GROUP BY
//     suite_name` over the same latest rows computing the same counts: statuses, scores, and the
//     distinct executions and cases. Target <= 2x (issue 15). The counts-only GROUP BY is printed
//     for reference.
//  3. bytes on disk per direct execution: 1 000 real kit executions (trace, events, evidence) after
//     1 000 warm-up ones, so the empty schema's pages do not count. Target <= 8 KB.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const sqlite3 = require('sqlite3');

const ROOT = path.resolve(__dirname, '..');
const { SQLiteExecutionStore } = require(path.join(ROOT, 'packages/store-sqlite/dist'));
const { CallTool, InProcessServer, MCPTestKit } = require(path.join(ROOT, 'packages/core/dist'));
const { createExampleServer } = require(path.join(ROOT, 'examples/servers/dist'));

const SAVES = 100_000;
const AGGREGATE_ROWS = 1_000_000;
const EXECUTIONS = 1_000;
/** Issue 11: a direct execution fits in 8 KB (schema 1 took ~28 KB). */
const TARGET_BYTES = 8 * 1024;
const EVALUATOR = 'bench.answer.v1';
const SUITES = 20;

const hex = (n) => n.toString(16).padStart(32, '0');
const ms = (started) => Number(process.hrtime.bigint() - started) / 1e6;

/** The faster of several timings (a shared machine only ever adds time), by wall and by CPU. */
function best(timings) {
  return {
    wall: Math.min(...timings.map((t) => t.wall)),
    cpu: Math.min(...timings.map((t) => t.cpu)),
    value: timings[0].value,
  };
}

/** Wall and process CPU time (all threads, so the driver's worker threads count) of `work`. */
async function measure(work) {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { wall: ms(started), cpu: (used.user + used.system) / 1000, value };
}
const fmt = (n) => n.toFixed(0).padStart(8);

function raw(dbPath) {
  const db = new sqlite3.Database(dbPath);
  const call = (method, sql, params = []) =>
    new Promise((resolve, reject) => db[method](sql, params, (e, r) => (e ? reject(e) : resolve(r))));
  return {
    exec: (sql) => new Promise((resolve, reject) => db.exec(sql, (e) => (e ? reject(e) : resolve()))),
    run: (sql, params) => call('run', sql, params),
    all: (sql, params) => call('all', sql, params),
    prepare: (sql) => db.prepare(sql),
    close: () => new Promise((resolve) => db.close(() => resolve())),
  };
}

function evaluationRow(i, executionId) {
  const labels = {
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
  };
  const result = {
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
  };
  return { result, labels };
}

function executionRecord(executionId, n) {
  return {
    executionId,
    runId: 'run-bench',
    suiteName: `suite-${n % SUITES}`,
    caseId: `case-${n}`,
    attemptId: null,
    kind: 'direct',
    spec: { kind: 'direct', operation: 'callTool' },
    servers: [{ name: 'catalog', transport: 'stdio', target: 'node' }],
    labels: {
      runId: 'run-bench',
      suiteName: `suite-${n % SUITES}`,
      caseId: `case-${n}`,
      server: 'catalog',
      transport: 'stdio',
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
  };
}

/**
 * The plain table raw inserts write: the same values (every label the store keeps, null or not),
 * a primary key and the unique id only; none of the store's derived columns (lineage key,
 * execution time, latest flag) or its run, execution and lineage indexes.
 */
const RAW_TABLE = `CREATE TABLE evaluations (row_id INTEGER PRIMARY KEY, evaluation_id TEXT NOT NULL UNIQUE, evaluator TEXT,
    execution_id TEXT, turn_id TEXT, subject_digest TEXT, status TEXT, score REAL, required INTEGER, created_at TEXT,
    run_id TEXT, suite_name TEXT, case_id TEXT, server TEXT, tool TEXT, transport TEXT, harness TEXT, model TEXT,
    trial TEXT, judge_model TEXT, rubric_id TEXT, matrix_id TEXT, metadata_json TEXT, result_json TEXT)`;
const RAW_WIDTH = 23;

/** The values of one raw row, in RAW_TABLE order after row_id. */
const rawValues = ({ result: r, labels: l }) => [
  r.evaluationId,
  r.evaluator,
  r.executionId,
  r.turnId,
  r.subjectDigest,
  r.status,
  r.score,
  r.required ? 1 : 0,
  r.createdAt,
  l.runId,
  l.suiteName,
  l.caseId,
  l.server,
  l.tool,
  l.transport,
  l.harness,
  l.model,
  l.trial,
  l.judgeModel,
  l.rubricId,
  l.matrixId,
  JSON.stringify(l.metadata),
  JSON.stringify(r),
];

async function saveThroughStore(dir, round) {
  const store = new SQLiteExecutionStore(path.join(dir, `store-${round}.sqlite`));
  const executionId = `exec-${hex(1)}`;
  await store.createExecution(executionRecord(executionId, 1));
  const rows = Array.from({ length: SAVES }, (_, i) => evaluationRow(i, executionId));
  const timing = await measure(async () => {
    for (let start = 0; start < SAVES; start += 1_000) {
      await Promise.all(rows.slice(start, start + 1_000).map((row) => store.saveEvaluation(row)));
    }
  });
  await store.close();
  return { timing, rows };
}

async function saveRaw(dir, rows, round) {
  const db = raw(path.join(dir, `raw-${round}.sqlite`));
  await db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  await db.exec(RAW_TABLE);
  const timing = await measure(async () => {
    await db.exec('BEGIN');
    const statement = db.prepare(`INSERT INTO evaluations VALUES (NULL, ${Array(RAW_WIDTH).fill('?').join(', ')})`);
    await Promise.all(
      rows.map(
        (row) => new Promise((resolve, reject) => statement.run(rawValues(row), (e) => (e ? reject(e) : resolve()))),
      ),
    );
    await new Promise((resolve) => statement.finalize(resolve));
    await db.exec('COMMIT');
  });
  await db.close();
  return timing;
}

/** The best raw use: caller-encoded JSON batches of `batch` rows, json_each, one transaction. */
async function saveRawJsonEach(dir, rows, round, batch) {
  const db = raw(path.join(dir, `raw-json-${batch}-${round}.sqlite`));
  await db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  await db.exec(RAW_TABLE);
  const columns = Array.from({ length: RAW_WIDTH }, (_, k) => `value->>${k}`).join(', ');
  const timing = await measure(async () => {
    await db.exec('BEGIN');
    for (let start = 0; start < rows.length; start += batch) {
      const values = rows.slice(start, start + batch).map(rawValues);
      await db.run(`INSERT INTO evaluations SELECT NULL, ${columns} FROM json_each(?)`, [JSON.stringify(values)]);
    }
    await db.exec('COMMIT');
  });
  await db.close();
  return timing;
}

/**
 * Raw multi-row `INSERT … VALUES (…), (…)` of bound values (no JSON on either side), 256 rows a
 * prepared statement, in ONE transaction: printed for reference (the target is against json_each).
 */
async function saveRawValues(dir, rows, round) {
  const db = raw(path.join(dir, `raw-values-${round}.sqlite`));
  await db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  await db.exec(RAW_TABLE);
  const placeholders = `(NULL, ${Array(RAW_WIDTH).fill('?').join(', ')})`;
  const statements = new Map();
  const statement = (n) => {
    if (!statements.has(n)) {
      statements.set(n, db.prepare(`INSERT INTO evaluations VALUES ${Array(n).fill(placeholders).join(', ')}`));
    }
    return statements.get(n);
  };
  const timing = await measure(async () => {
    await db.exec('BEGIN');
    for (let start = 0; start < rows.length; start += 256) {
      const chunk = rows.slice(start, start + 256);
      const params = chunk.flatMap(rawValues);
      await new Promise((resolve, reject) => statement(chunk.length).run(params, (e) => (e ? reject(e) : resolve())));
    }
    await db.exec('COMMIT');
  });
  await Promise.all([...statements.values()].map((s) => new Promise((resolve) => s.finalize(resolve))));
  await db.close();
  return timing;
}

/** Fills the store's own schema with 1M latest rows through SQL (the lineage trigger runs on each). */
async function fillForAggregate(dir) {
  const dbPath = path.join(dir, 'aggregate.sqlite');
  const store = new SQLiteExecutionStore(dbPath);
  await store.createExecution(executionRecord(`exec-${hex(2)}`, 2));
  await store.close();
  const db = raw(dbPath);
  await db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  await db.exec(`BEGIN; WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${AGGREGATE_ROWS - 1})
    INSERT INTO evaluations (evaluation_id, evaluator, lineage_id, subject_digest, execution_id, turn_id, status,
      score, required, created_at, execution_created_at, run_id, suite_name, case_id, server, tool, transport, trial,
      metadata_json, result_json)
    SELECT printf('eval-%032x', i), '${EVALUATOR}', i, printf('%064x', i),
      printf('exec-%032x', i / 10), NULL, CASE WHEN i % 4 = 0 THEN 'failed' ELSE 'passed' END, (i % 10) / 10.0, 0,
      '2026-03-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', 'run-bench', 'suite-' || ((i / 10) % ${SUITES}), 'case-' || ((i / 10) % 5000),
      'catalog', 'normalize', 'stdio', CAST(i % 3 AS TEXT), '{}', '{}' FROM n; COMMIT;`);
  await db.close();
  return dbPath;
}

async function aggregateComparison(dir) {
  const dbPath = await fillForAggregate(dir);
  const store = new SQLiteExecutionStore(dbPath);
  const query = { filters: { evaluator: [EVALUATOR] }, groupBy: ['suiteName'] };
  await store.aggregateEvaluations(query); // warm the page cache and statement
  const ours = best([
    await measure(() => store.aggregateEvaluations(query)),
    await measure(() => store.aggregateEvaluations(query)),
    await measure(() => store.aggregateEvaluations(query)),
  ]);
  await store.close();
  const db = raw(dbPath);
  // The hand-written GROUP BY over the same latest rows: counts only, and with the distinct
  // execution/case counts the report also carries (pass^k/pass@k and requirements need more).
  const simple = `SELECT suite_name, COUNT(*) AS n, TOTAL(status = 'passed') AS passed, AVG(score) AS average
    FROM evaluations WHERE is_latest = 1 AND evaluator = ? GROUP BY suite_name`;
  const distinct = `SELECT suite_name, COUNT(*) AS n, TOTAL(status = 'passed') AS passed, TOTAL(status = 'failed'),
    TOTAL(status = 'inconclusive'), TOTAL(status = 'error'), TOTAL(status = 'not_run'), AVG(score), COUNT(score),
    COUNT(DISTINCT execution_id), COUNT(DISTINCT case_id)
    FROM evaluations WHERE is_latest = 1 AND evaluator = ? GROUP BY suite_name`;
  // Every count the report carries, by hand: per suite and for the whole selection, the status
  // counts, score, distinct executions and cases, and pass^k / pass@k (a case passes a trial when
  // every evaluation of that execution passed; all trials → pass^k, any → pass@k).
  const full = `WITH t AS MATERIALIZED (
      SELECT suite_name AS g, case_id, execution_id, COUNT(*) AS n, TOTAL(status = 'passed') AS passed,
        TOTAL(status = 'failed') AS failed, TOTAL(status = 'inconclusive') AS inconclusive, TOTAL(status = 'error') AS error,
        TOTAL(status = 'not_run') AS not_run, TOTAL(score) AS score_sum, COUNT(score) AS score_count,
        MIN(status = 'passed') AS trial_passed
      FROM evaluations WHERE is_latest = 1 AND evaluator = ? GROUP BY suite_name, case_id, execution_id),
    c AS (SELECT g, case_id, MIN(trial_passed) AS all_passed, MAX(trial_passed) AS any_passed FROM t GROUP BY g, case_id),
    tc AS (SELECT MIN(trial_passed) AS all_passed, MAX(trial_passed) AS any_passed FROM t GROUP BY case_id)
    SELECT t.g, TOTAL(n), TOTAL(passed), TOTAL(failed), TOTAL(inconclusive), TOTAL(error), TOTAL(not_run),
      TOTAL(score_sum), TOTAL(score_count), COUNT(DISTINCT execution_id), COUNT(DISTINCT t.case_id),
      (SELECT TOTAL(all_passed) FROM c WHERE c.g = t.g) AS cases_all, (SELECT TOTAL(any_passed) FROM c WHERE c.g = t.g) AS cases_any
    FROM t GROUP BY t.g
    UNION ALL
    SELECT NULL, TOTAL(n), TOTAL(passed), TOTAL(failed), TOTAL(inconclusive), TOTAL(error), TOTAL(not_run),
      TOTAL(score_sum), TOTAL(score_count), COUNT(DISTINCT execution_id), COUNT(DISTINCT case_id),
      (SELECT TOTAL(all_passed) FROM tc), (SELECT TOTAL(any_passed) FROM tc)
    FROM t`;
  await db.all(simple, [EVALUATOR]);
  const rawFull = best([
    await measure(() => db.all(full, [EVALUATOR])),
    await measure(() => db.all(full, [EVALUATOR])),
    await measure(() => db.all(full, [EVALUATOR])),
  ]);
  const rawSimple = best([
    await measure(() => db.all(simple, [EVALUATOR])),
    await measure(() => db.all(simple, [EVALUATOR])),
    await measure(() => db.all(simple, [EVALUATOR])),
  ]);
  const rawDistinct = best([
    await measure(() => db.all(distinct, [EVALUATOR])),
    await measure(() => db.all(distinct, [EVALUATOR])),
    await measure(() => db.all(distinct, [EVALUATOR])),
  ]);
  await db.close();
  const report = ours.value;
  if (report.totals.evaluationCount !== AGGREGATE_ROWS || rawSimple.value.length !== report.groups.length) {
    throw new Error(`aggregate mismatch: ${report.totals.evaluationCount} rows, ${report.groups.length} groups`);
  }
  // The hand-written report must hold the store's numbers, or the comparison is not like for like.
  const fullTotals = rawFull.value.at(-1);
  const fullOf = (row) => Object.values(row);
  const [, n, passed, , , , , , , executions, cases, casesAll, casesAny] = fullOf(fullTotals);
  const t = report.totals;
  const expected = [
    t.evaluationCount,
    t.passedCount,
    t.executionCount,
    t.caseCount,
    t.casesAllPassed,
    t.casesAnyPassed,
  ];
  const got = [n, passed, executions, cases, casesAll, casesAny];
  if (expected.some((v, i) => v !== got[i]) || rawFull.value.length !== report.groups.length + 1) {
    throw new Error(
      `hand-written report differs from the store's: ${JSON.stringify(got)} vs ${JSON.stringify(expected)}`,
    );
  }
  return { ours, rawSimple, rawDistinct, rawFull };
}

/** Bytes on disk per direct execution: real kit executions, file growth over a second batch. */
async function bytesPerDirectExecution(dir) {
  const dbPath = path.join(dir, 'executions.sqlite');
  const server = new InProcessServer({ name: 'example', factory: createExampleServer });
  const batch = async (offset) => {
    const store = new SQLiteExecutionStore(dbPath);
    const kit = new MCPTestKit({ store, runId: 'run-bench', suiteName: 'bench', caseId: 'quote' });
    for (let n = 0; n < EXECUTIONS; n += 1) {
      const weight = 1 + ((offset + n) % 40);
      await kit.run(new CallTool({ server, tool: 'shipping_quote', arguments: { weight_kg: weight, zone: 'local' } }));
    }
    await kit.close();
    await store.close(); // the last connection checkpoints and removes the WAL
    return fs.statSync(dbPath).size;
  };
  const warm = await batch(0);
  return (await batch(EXECUTIONS)) - warm;
}

async function run() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'm3-store-bench-'));
  try {
    const savedRounds = [];
    const rawRounds = [];
    const jsonRounds = [];
    const valuesRounds = [];
    for (let round = 0; round < 2; round += 1) {
      const { timing, rows } = await saveThroughStore(dir, round);
      savedRounds.push(timing);
      jsonRounds.push(await saveRawJsonEach(dir, rows, round, 1_000));
      jsonRounds.push(await saveRawJsonEach(dir, rows, round, 10_000));
      rawRounds.push(await saveRaw(dir, rows, round));
      valuesRounds.push(await saveRawValues(dir, rows, round));
    }
    const saved = best(savedRounds);
    const rawPlain = best(rawRounds);
    const rawJson = best(jsonRounds);
    const rawMultiRow = best(valuesRounds);
    const { ours, rawSimple, rawDistinct, rawFull } = await aggregateComparison(dir);
    const perExecution = (await bytesPerDirectExecution(dir)) / EXECUTIONS;
    const line = (label, a, b, target) => {
      const wall = a.wall / b.wall;
      const cpu = a.cpu / b.cpu;
      const verdict = target === null ? '' : `<= ${target}x ${wall <= target || cpu <= target ? 'ok' : 'MISSED'}`;
      return `${label.padEnd(62)} ${fmt(a.wall)} ${fmt(b.wall)} ${wall.toFixed(2).padStart(6)} ${cpu.toFixed(2).padStart(6)}  ${verdict}`;
    };
    process.stdout.write(
      [
        `${'measure (best of 2-3 rounds, ms; ratio = sf-m3 / raw, wall and CPU)'.padEnd(62)}    sf-m3      raw   wall    cpu  target`,
        line(`save ${SAVES} evaluations vs raw batched json_each, one transaction`, saved, rawJson, 1.5),
        line('  same vs raw per-row prepared inserts, one transaction', saved, rawPlain, null),
        line('  same vs raw multi-row INSERT … VALUES, one transaction', saved, rawMultiRow, null),
        line(
          `aggregate by suite, ${AGGREGATE_ROWS} evals vs raw GROUP BY incl. distinct exec/case`,
          ours,
          rawDistinct,
          2,
        ),
        line('  same vs raw SQL of every count the report has (pass^k/pass@k, totals)', ours, rawFull, null),
        line('  same vs raw GROUP BY of counts only (no distinct counts)', ours, rawSimple, null),
        `bytes on disk per direct execution (${EXECUTIONS} kit executions of shipping_quote, in-process example server; ` +
          `events, trace, evidence): ${Math.round(perExecution)}  <= ${TARGET_BYTES} ${perExecution <= TARGET_BYTES ? 'ok' : 'MISSED'}`,
        '',
      ].join('\n'),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { run };
