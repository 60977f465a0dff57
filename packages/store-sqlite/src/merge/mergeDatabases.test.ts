import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as sqlite3 from 'sqlite3';
import { type ExecutionStore, type RunRecord, StoreError, StoreSchemaError } from '@sf-m3/core';
import { attemptRecord, executionRecord, finishedTrace, storedEvaluation } from '@sf-m3/test-utils/store';
import { SCHEMA_VERSION } from '../schema';
import { SQLiteExecutionStore } from '../SQLiteExecutionStore';
import { mergeResultsDatabases } from './mergeDatabases';

const root = mkdtempSync(join(tmpdir(), 'm3-merge-'));
let n = 0;
const freshPath = (name: string): string => {
  const folder = join(root, `case-${++n}`);
  mkdirSync(folder);
  return join(folder, `${name}.sqlite`);
};
const EVALUATOR = 'merge.check.v1';

function rawSql(path: string, sql: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, (openError) => {
      if (openError) return reject(openError);
      db.exec(sql, (error) => db.close(() => (error ? reject(error) : resolve())));
    });
  });
}

async function withStore<T>(path: string, work: (store: ExecutionStore) => Promise<T>): Promise<T> {
  const store = new SQLiteExecutionStore(path);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** One shard of run `runId`: `tests` passed attempts in suite `shared`, each with an evaluated execution. */
async function writeShard(
  path: string,
  runId: string,
  tests: number,
  options: { status?: RunRecord['status']; startedAt?: string; extraSuite?: string } = {},
): Promise<string[]> {
  return withStore(path, async (store) => {
    if (options.extraSuite !== undefined) await store.registerSuite(options.extraSuite);
    const suite = await store.registerSuite('shared');
    const startedAt = options.startedAt ?? '2026-03-02T10:00:00.000Z';
    const executionIds: string[] = [];
    for (let i = 0; i < tests; i += 1) {
      const attempt = attemptRecord({ runId, suiteId: suite.suiteId });
      const execution = executionRecord({
        runId,
        suiteName: 'shared',
        caseId: `case-${i}`,
        attemptId: attempt.attemptId,
      });
      await store.saveAttempt({ ...attempt, executionIds: [execution.executionId] });
      await store.createExecution(execution);
      await store.finishExecution(finishedTrace(execution.executionId).finished);
      await store.saveEvaluation(
        storedEvaluation({ evaluator: EVALUATOR, status: 'failed', required: true }, {}, execution),
      );
      await store.saveEvaluation(storedEvaluation({ evaluator: EVALUATOR, status: 'passed' }, {}, execution));
      executionIds.push(execution.executionId);
    }
    await store.saveRun({
      runId,
      label: null,
      startedAt,
      finishedAt: options.status === 'running' ? null : '2026-03-02T10:05:00.000Z',
      status: options.status ?? 'passed',
      argv: ['test', '--', '--shard=1/2'],
      counts: { passed: tests, failed: 0, skipped: 0, todo: 0 },
    });
    return executionIds;
  });
}

/** Everything a reader sees in a file, for before/after comparisons. */
async function contents(path: string) {
  return withStore(path, async (store) => {
    const runs = await store.listRuns();
    const perRun = [];
    for (const run of runs) {
      const executions = await store.listExecutions({ runId: run.runId });
      perRun.push({
        run,
        attempts: (await store.listAttempts({ runId: run.runId })).length,
        executions: executions.map((e) => e.executionId).sort(),
        evaluations: (await store.listEvaluations({ runId: run.runId })).map((e) => e.evaluationId).sort(),
        report: await store.aggregateEvaluations({ filters: { evaluator: [EVALUATOR], runId: [run.runId] } }),
      });
    }
    return { suites: (await store.listSuites()).map((s) => s.name), perRun };
  });
}

const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('mergeResultsDatabases', () => {
  test('merges the shards of one run into one run whose counts are the sum, keeping every row once', async () => {
    const a = freshPath('a');
    const b = freshPath('b');
    const out = freshPath('out');
    const inA = await writeShard(a, 'run-sharded', 2);
    // Another suite registered first gives "shared" a different local id in this file.
    const inB = await writeShard(b, 'run-sharded', 3, { extraSuite: 'other', startedAt: '2026-03-02T09:59:00.000Z' });
    await writeShard(b, 'run-solo', 1, { startedAt: '2026-03-01T00:00:00.000Z' });
    const aBefore = sha(a);

    const report = await mergeResultsDatabases(out, [a, b]);
    expect(report.runIds).toEqual(['run-sharded', 'run-solo']);
    expect(report.added).toMatchObject({ runs: 2, attempts: 6, executions: 6, evaluations: 12, suites: 2, blobs: 1 });
    expect(sha(a)).toBe(aBefore);

    const merged = await contents(out);
    expect(merged.suites.sort()).toEqual(['other', 'shared']);
    const sharded = merged.perRun.find((r) => r.run.runId === 'run-sharded')!;
    expect(sharded.run).toMatchObject({
      status: 'passed',
      startedAt: '2026-03-02T09:59:00.000Z',
      counts: { passed: 5, failed: 0, skipped: 0, todo: 0 },
    });
    expect(sharded.executions).toEqual([...inA, ...inB].sort());
    expect(sharded.evaluations).toHaveLength(5);
    expect(sharded.report.totals).toMatchObject({ evaluationCount: 5, passedCount: 5, executionCount: 5 });
    await withStore(out, async (store) => {
      const sharedId = (await store.listSuites()).find((s) => s.name === 'shared')!.suiteId;
      const attempts = await store.listAttempts({ runId: 'run-sharded' });
      expect(attempts.map((x) => x.suiteId)).toEqual(attempts.map(() => sharedId));
      for (const id of [...inA, ...inB]) expect((await store.getTrace(id)).events.length).toBe(4);
      const [first] = await store.listEvaluations({ executionId: inB[0]! });
      expect(await store.isRequiredLineage(first!)).toBe(true);
    });
  });

  test('merging the same files again adds nothing and changes nothing a reader sees', async () => {
    const a = freshPath('a');
    const b = freshPath('b');
    const out = freshPath('out');
    await writeShard(a, 'run-x', 2);
    await writeShard(b, 'run-x', 2);
    await mergeResultsDatabases(out, [a, b]);
    const once = await contents(out);
    const again = await mergeResultsDatabases(out, [b, a]);
    expect(Object.values(again.added).every((count) => count === 0)).toBe(true);
    expect(await contents(out)).toEqual(once);
    // OUT may itself be a shard: merging the other into it gives the same history.
    const intoShard = freshPath('copy');
    copyFileSync(a, intoShard);
    await mergeResultsDatabases(intoShard, [b]);
    expect(await contents(intoShard)).toEqual(once);
  });

  test('a shard still running keeps the run running; a finished copy of an execution replaces an unfinished one', async () => {
    const a = freshPath('a');
    const b = freshPath('b');
    const out = freshPath('out');
    await writeShard(a, 'run-live', 1, { status: 'running' });
    await writeShard(b, 'run-live', 1);
    const unfinished = executionRecord({ runId: 'run-live' });
    await withStore(a, (store) => store.createExecution(unfinished));
    await withStore(b, async (store) => {
      await store.createExecution(unfinished);
      await store.finishExecution(finishedTrace(unfinished.executionId).finished);
    });
    await mergeResultsDatabases(out, [a, b]);
    await withStore(out, async (store) => {
      expect(await store.getRun('run-live')).toMatchObject({ status: 'running', finishedAt: null });
      expect(await store.getExecution(unfinished.executionId)).toMatchObject({ outcome: 'completed' });
      expect((await store.getTrace(unfinished.executionId)).events).toHaveLength(4);
    });
  });

  test('refuses a file that is not an sf-m3 database, naming it, and leaves OUT untouched', async () => {
    const out = freshPath('out');
    await writeShard(out, 'run-out', 1);
    const before = sha(out);
    const text = join(root, 'notes.sqlite');
    writeFileSync(
      text,
      'not a database at all, but long enough to hold a whole SQLite header of one hundred bytes......',
    );
    const foreign = freshPath('foreign');
    await rawSql(foreign, 'CREATE TABLE customers (id INTEGER PRIMARY KEY)');
    await expect(mergeResultsDatabases(out, [text])).rejects.toThrow(/notes\.sqlite is not an sf-m3 results database/);
    await expect(mergeResultsDatabases(out, [foreign])).rejects.toThrow(/another program \(tables: customers\)/);
    await expect(mergeResultsDatabases(out, [join(root, 'missing.sqlite')])).rejects.toThrow(/no results database at/);
    await expect(mergeResultsDatabases(out, [out])).rejects.toThrow(/is OUT itself/);
    expect(sha(out)).toBe(before);
  });

  test('refuses an input of another schema version with StoreSchemaError naming both versions', async () => {
    const out = freshPath('out');
    const older = freshPath('older');
    const newer = freshPath('newer');
    await writeShard(older, 'run-old', 1);
    await writeShard(newer, 'run-new', 1);
    await rawSql(older, `PRAGMA user_version = ${SCHEMA_VERSION - 1}`);
    await rawSql(newer, `PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    await expect(mergeResultsDatabases(out, [older])).rejects.toThrow(StoreSchemaError);
    await expect(mergeResultsDatabases(out, [older])).rejects.toThrow(
      `has schema version ${SCHEMA_VERSION - 1}, and this sf-m3 merges version ${SCHEMA_VERSION}`,
    );
    await expect(mergeResultsDatabases(out, [newer])).rejects.toThrow(`schema version ${SCHEMA_VERSION + 1}`);
  });

  test('a failure part-way through leaves OUT exactly as it was (one transaction)', async () => {
    const out = freshPath('out');
    const good = freshPath('good');
    const odd = freshPath('odd');
    await writeShard(out, 'run-out', 1);
    await writeShard(good, 'run-good', 2);
    await writeShard(odd, 'run-odd', 1);
    await rawSql(odd, 'CREATE TABLE extra_cache (x)');
    const before = await contents(out);
    // The first input is copied before the second is found wanting.
    const failed = mergeResultsDatabases(out, [good, odd]);
    await expect(failed).rejects.toThrow(StoreError);
    await expect(mergeResultsDatabases(out, [good, odd])).rejects.toThrow(
      /tables this merge does not know \(extra_cache\)/,
    );
    expect(await contents(out)).toEqual(before);
  });

  test('waits for another writer of OUT, then says OUT stayed locked', async () => {
    const out = freshPath('out');
    const input = freshPath('in');
    await writeShard(out, 'run-out', 1);
    await writeShard(input, 'run-in', 1);
    const holder = new sqlite3.Database(out);
    await new Promise<void>((resolve, reject) => holder.exec('BEGIN IMMEDIATE', (e) => (e ? reject(e) : resolve())));
    try {
      await expect(mergeResultsDatabases(out, [input], { busyTimeoutMs: 50 })).rejects.toThrow(
        /out\.sqlite stayed locked by another writer .*: merge when it has finished/,
      );
    } finally {
      await new Promise<void>((resolve) => holder.exec('ROLLBACK', () => holder.close(() => resolve())));
    }
    expect((await contents(out)).perRun.map((r) => r.run.runId)).toEqual(['run-out']);
  });
});
