import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import * as sqlite3 from 'sqlite3';
import { type ExecutionRecord, TraceResult } from '@sf-m3/core';
import type { TraceResultData } from '../../core/src/trace/TraceResult';
import { executionRecord, finishedTrace } from '@sf-m3/test-utils/store';
import { SF_M3_APPLICATION_ID } from './databaseIdentity';
import { SCHEMA_VERSION } from './schema';
import { SQLiteExecutionStore } from './SQLiteExecutionStore';

// __fixtures__/schema-v1.sqlite.gz was written by the schema-version-1 store (commit a03f34e): one
// run and one in-process direct execution of the example server's shipping_quote, evaluated; its
// trace, as that code read it back, is in schema-v1.expected.json.
const FIXTURES = join(__dirname, '__fixtures__');
const expected = JSON.parse(readFileSync(join(FIXTURES, 'schema-v1.expected.json'), 'utf8')) as {
  runId: string;
  execution: ExecutionRecord;
  trace: TraceResultData;
};

function v1Copy(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'm3-sqlite-v1-')), 'executions.sqlite');
  writeFileSync(path, gunzipSync(readFileSync(join(FIXTURES, 'schema-v1.sqlite.gz'))));
  return path;
}

function rawAll<T>(path: string, sql: string): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, sqlite3.OPEN_READONLY, (openError) => {
      if (openError) return reject(openError);
      db.all(sql, (error, rows) => db.close(() => (error ? reject(error) : resolve(rows as T[]))));
    });
  });
}

describe('a database written by schema version 1', () => {
  it('gains the index of running runs (version 5): listRunningRuns reads it, not the whole history', async () => {
    const path = v1Copy();
    const store = new SQLiteExecutionStore(path);
    const [old] = await store.listRuns();
    await store.saveRun({ ...old!, runId: 'run-still-running', status: 'running', finishedAt: null });
    expect((await store.listRunningRuns()).map((r) => r.runId)).toEqual(['run-still-running']);
    await store.close();
    const plan = await rawAll<{ detail: string }>(
      path,
      "EXPLAIN QUERY PLAN SELECT record_json FROM runs WHERE json_extract(record_json, '$.status') = 'running' " +
        'ORDER BY started_at DESC, run_id DESC',
    );
    expect(plan.map((row) => row.detail)).toEqual([expect.stringContaining('USING INDEX runs_running')]);
  });

  it('is migrated forward on open and keeps every record readable', async () => {
    const path = v1Copy();
    expect(await rawAll(path, 'PRAGMA user_version')).toEqual([{ user_version: 1 }]);
    const store = new SQLiteExecutionStore(path);
    expect((await store.listRuns()).map((r) => r.runId)).toEqual([expected.runId]);
    expect(await store.getExecution(expected.execution.executionId)).toEqual(expected.execution);
    const trace = await store.getTrace(expected.execution.executionId);
    expect(trace.toJSON()).toEqual(expected.trace);
    expect((await store.getTraceView(expected.execution.executionId)).toJSON()).toEqual(
      TraceResult.fromJSON(expected.trace).view().toJSON(),
    );
    const evaluations = await store.listEvaluations({ executionId: expected.execution.executionId });
    expect(evaluations.map((e) => e.status)).toEqual(['passed']);

    // New executions go to the new layout, next to the old rows.
    const record = executionRecord({ runId: expected.runId });
    await store.createExecution(record);
    const { trace: written, finished } = finishedTrace(record.executionId);
    await store.finishExecution(finished);
    expect((await store.getTrace(record.executionId)).toJSON()).toEqual(written.toJSON());
    await store.close();

    expect(await rawAll(path, 'PRAGMA user_version')).toEqual([{ user_version: SCHEMA_VERSION }]);
    expect(await rawAll(path, 'PRAGMA application_id')).toEqual([{ application_id: SF_M3_APPLICATION_ID }]);
    expect(await rawAll(path, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    expect(await rawAll(path, 'SELECT execution_id, COUNT(*) AS n FROM event_chunks GROUP BY execution_id')).toEqual([
      { execution_id: record.executionId, n: 1 },
    ]);
  });

  it('is read as it is when opened read-only, without migrating it', async () => {
    const path = v1Copy();
    const before = readFileSync(path);
    const reader = new SQLiteExecutionStore(path, { readOnly: true });
    expect((await reader.getTrace(expected.execution.executionId)).toJSON()).toEqual(expected.trace);
    expect((await reader.listRuns()).map((r) => r.runId)).toEqual([expected.runId]);
    await reader.close();
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});

// __fixtures__/schema-v2.sqlite.gz was written by the schema-version-2 store (commit b345072,
// __fixtures__/writeSchemaV2.js); what that store reported on it is in schema-v2.expected.json.
describe('a database written by schema version 2', () => {
  const v2 = JSON.parse(readFileSync(join(FIXTURES, 'schema-v2.expected.json'), 'utf8')) as Record<string, unknown>;
  const v2Copy = (): string => {
    const path = join(mkdtempSync(join(tmpdir(), 'm3-sqlite-v2-')), 'executions.sqlite');
    writeFileSync(path, gunzipSync(readFileSync(join(FIXTURES, 'schema-v2.sqlite.gz'))));
    return path;
  };
  const answer = (store: SQLiteExecutionStore) =>
    store.aggregateEvaluations({ filters: { evaluator: ['v2.answer.v1'] }, groupBy: ['runId', 'caseId'] });
  const required = { executionId: 'exec-1', turnId: null, evaluator: 'v2.answer.v1', subjectDigest: 'a'.repeat(64) };

  it('is migrated to version 3 and reports what version 2 reported; new rows keep its lineages', async () => {
    const path = v2Copy();
    const store = new SQLiteExecutionStore(path);
    expect(await answer(store)).toEqual(v2.answerByRun);
    expect(await store.aggregateEvaluations({ filters: {}, groupBy: ['evaluator'] })).toEqual(v2.byEvaluator);
    expect((await store.listEvaluations({})).map((e) => e.evaluationId)).toEqual(v2.latest);
    // exec-1's lineage was required by a v2 row: still required, and a v3 re-evaluation supersedes it.
    expect(await store.isRequiredLineage(required)).toBe(true);
    const [old] = await store.listEvaluations({ executionId: 'exec-1' });
    await store.saveEvaluation({
      result: {
        ...old!,
        evaluationId: 'eval-v3',
        status: 'failed',
        required: false,
        createdAt: '2026-03-03T00:00:00.000Z',
      },
      labels: {
        runId: 'run-1',
        suiteName: 'suite-a',
        caseId: 'case-a',
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
      },
    });
    expect((await store.listEvaluations({ executionId: 'exec-1' })).map((e) => e.evaluationId)).toEqual(['eval-v3']);
    expect(await store.isRequiredLineage(required)).toBe(true);
    await store.close();
    expect(await rawAll(path, 'PRAGMA user_version')).toEqual([{ user_version: SCHEMA_VERSION }]);
    expect(await rawAll(path, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    // The per-row triggers are gone; the label indexes but the run's are gone.
    const schemaOf =
      "SELECT name FROM sqlite_master WHERE type IN ('trigger', 'index') AND tbl_name = 'evaluations' ORDER BY name";
    expect(await rawAll(path, schemaOf)).toEqual([
      { name: 'evaluations_by_execution' },
      { name: 'evaluations_by_lineage' },
      { name: 'evaluations_by_run' },
      { name: 'sqlite_autoindex_evaluations_1' },
    ]);
  });

  it('is read as it is when opened read-only', async () => {
    const path = v2Copy();
    const before = readFileSync(path);
    const reader = new SQLiteExecutionStore(path, { readOnly: true });
    expect(await answer(reader)).toEqual(v2.answerByRun);
    expect(await reader.isRequiredLineage(required)).toBe(true);
    await reader.close();
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
