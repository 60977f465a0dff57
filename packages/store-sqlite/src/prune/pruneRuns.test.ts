import { existsSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as sqlite3 from 'sqlite3';
import { type ExecutionStore, StoreError } from '@sf-m3/core';
import { attemptRecord, executionRecord, finishedTrace, storedEvaluation } from '@sf-m3/test-utils/store';
import { SQLiteExecutionStore } from '../SQLiteExecutionStore';

const root = mkdtempSync(join(tmpdir(), 'm3-prune-'));
let n = 0;
const freshPath = (): string => {
  const folder = join(root, `case-${++n}`);
  mkdirSync(folder);
  return join(folder, 'executions.sqlite');
};

function rowCounts(path: string): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, sqlite3.OPEN_READONLY, (openError) => {
      if (openError) return reject(openError);
      db.all<{ name: string }>(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        async (error, tables) => {
          if (error) return reject(error);
          const counts: Record<string, number> = {};
          for (const { name } of tables) {
            counts[name] = await new Promise<number>((res, rej) =>
              db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM "${name}"`, (e, row) => (e ? rej(e) : res(row!.n))),
            );
          }
          db.close(() => resolve(counts));
        },
      );
    });
  });
}

/** A finished run of `executions` executions, each with a trace, evidence, a session and two evaluations. */
async function seedRun(store: ExecutionStore, runId: string, startedAt: string, executions: number): Promise<void> {
  await store.saveRun({
    runId,
    label: null,
    startedAt,
    finishedAt: startedAt,
    status: 'passed',
    argv: ['test'],
    counts: { passed: executions, failed: 0, skipped: 0, todo: 0 },
  });
  const suite = await store.registerSuite(`suite of ${runId}`);
  for (let i = 0; i < executions; i += 1) {
    const attempt = attemptRecord({ runId, suiteId: suite.suiteId });
    const execution = executionRecord({
      runId,
      suiteName: suite.name,
      attemptId: attempt.attemptId,
      requiredEvaluators: ['e.v1'],
    });
    await store.saveAttempt({ ...attempt, executionIds: [execution.executionId] });
    await store.createExecution(execution);
    const { finished } = finishedTrace(execution.executionId);
    await store.finishExecution({
      ...finished,
      sessions: [
        {
          sessionId: `s-${execution.executionId}`,
          executionId: execution.executionId,
          createdAt: startedAt,
          closedAt: null,
          data: { note: 'x'.repeat(2000) },
        },
      ],
    });
    await store.saveEvaluation(
      storedEvaluation({ evaluator: 'e.v1', status: 'failed', rationale: 'y'.repeat(500) }, {}, execution),
    );
    await store.saveEvaluation(
      storedEvaluation({ evaluator: 'e.v1', status: 'passed', rationale: 'z'.repeat(500) }, {}, execution),
    );
  }
}

describe('SQLiteExecutionStore.pruneRuns', () => {
  test('reclaims the space: the file shrinks to the size it reports, with an empty -wal', async () => {
    const path = freshPath();
    const store = new SQLiteExecutionStore(path);
    for (let r = 0; r < 4; r += 1) await seedRun(store, `run-${r}`, `2026-01-0${r + 1}T00:00:00.000Z`, 30);
    const report = await store.pruneRuns({ keepRuns: 1 });
    expect(report.runIds).toEqual(['run-2', 'run-1', 'run-0']);
    expect(report.executionCount).toBe(90);
    expect(report.evaluationCount).toBe(90);
    expect(report.bytesBefore).toBeGreaterThan(0);
    expect(report.bytesAfter!).toBeLessThan(report.bytesBefore! / 2);
    expect(statSync(path).size).toBe(report.bytesAfter);
    expect(existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0).toBe(0);
    // The store keeps working on the rewritten file.
    await seedRun(store, 'run-after', '2026-02-01T00:00:00.000Z', 1);
    expect((await store.listRuns()).map((r) => r.runId)).toEqual(['run-after', 'run-3']);
    await store.close();
  });

  test('a dry run reports the size and deletes nothing', async () => {
    const path = freshPath();
    const store = new SQLiteExecutionStore(path);
    await seedRun(store, 'run-a', '2026-01-01T00:00:00.000Z', 3);
    await seedRun(store, 'run-b', '2026-01-02T00:00:00.000Z', 3);
    await store.close();
    const before = await rowCounts(path);
    const again = new SQLiteExecutionStore(path);
    const report = await again.pruneRuns({ keepRuns: 1 }, { dryRun: true });
    expect(report).toMatchObject({ dryRun: true, runIds: ['run-a'], executionCount: 3, evaluationCount: 3 });
    expect(report.bytesAfter).toBe(report.bytesBefore);
    await again.close();
    expect(await rowCounts(path)).toEqual(before);
  });

  test('pruning every run leaves every table empty (a table added later must be pruned too)', async () => {
    const path = freshPath();
    const store = new SQLiteExecutionStore(path);
    await seedRun(store, 'run-a', '2026-01-01T00:00:00.000Z', 2);
    await seedRun(store, 'run-b', '2026-01-02T00:00:00.000Z', 2);
    await store.pruneRuns({ keepRuns: 0 });
    await store.close();
    const counts = await rowCounts(path);
    expect(Object.keys(counts).length).toBeGreaterThan(10);
    expect(Object.entries(counts).filter(([, count]) => count > 0)).toEqual([]);
  });

  test("a lineage kept by another run gets its latest row back when the newer row's run goes", async () => {
    const store = new SQLiteExecutionStore(freshPath());
    const run = (runId: string, startedAt: string) => ({
      runId,
      label: null,
      startedAt,
      finishedAt: startedAt,
      status: 'passed' as const,
      argv: [],
      counts: { passed: 0, failed: 0, skipped: 0, todo: 0 },
    });
    await store.saveRun(run('run-early', '2026-01-01T00:00:00.000Z'));
    await store.saveRun(run('run-late', '2026-02-01T00:00:00.000Z'));
    // No execution: both rows belong to one lineage (evaluator, subject digest); the newer row is run-early's.
    const kept = storedEvaluation({ evaluator: 'e.v1', status: 'failed', required: true }, { runId: 'run-late' });
    const newer = storedEvaluation({ evaluator: 'e.v1', status: 'passed' }, { runId: 'run-early' });
    await store.saveEvaluation(kept);
    await store.saveEvaluation(newer);
    expect(await store.listEvaluations({ runId: 'run-late' })).toEqual([]);

    const report = await store.pruneRuns({ olderThan: '2026-01-15T00:00:00.000Z' });
    expect(report).toMatchObject({ runIds: ['run-early'], evaluationCount: 1 });
    expect((await store.listEvaluations({ runId: 'run-late' })).map((e) => e.evaluationId)).toEqual([
      kept.result.evaluationId,
    ]);
    expect(await store.isRequiredLineage(kept.result)).toBe(true);
    const report2 = await store.aggregateEvaluations({ filters: { evaluator: ['e.v1'] } });
    expect(report2.totals).toMatchObject({ evaluationCount: 1, statusCounts: { failed: 1, passed: 0 } });
    await store.close();
  });

  test('a store opened read-only refuses to prune', async () => {
    const path = freshPath();
    const writer = new SQLiteExecutionStore(path);
    await seedRun(writer, 'run-a', '2026-01-01T00:00:00.000Z', 1);
    await writer.close();
    const reader = new SQLiteExecutionStore(path, { readOnly: true });
    await expect(reader.pruneRuns({ keepRuns: 0 })).rejects.toThrow(StoreError);
    await expect(reader.pruneRuns({ keepRuns: 0 })).rejects.toThrow(/opened read-only/);
    await reader.close();
  });
});
