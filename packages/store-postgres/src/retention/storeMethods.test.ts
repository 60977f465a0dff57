// The methods other lanes add to ExecutionStore (TEAM.md signatures), on PostgreSQL; their shared
// contract cases run here too once they land in core.
import { Client } from 'pg';
import { attemptRecord, executionRecord, finishedTrace, storedEvaluation } from '@sf-m3/test-utils/store';
import { clusterForTests } from '@sf-m3/test-utils/postgres';
import { PostgresExecutionStore } from '../PostgresExecutionStore';

const cluster = clusterForTests();

async function count(url: string, table: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${table}`)).rows[0]!.n);
  } finally {
    await client.end();
  }
}

async function seedRun(store: PostgresExecutionStore, runId: string, startedAt: string): Promise<void> {
  await store.saveRun({
    runId,
    label: null,
    startedAt,
    finishedAt: startedAt,
    status: 'passed',
    argv: [],
    counts: { passed: 1, failed: 0, skipped: 0, todo: 0 },
  });
  const attempt = attemptRecord({ runId });
  const execution = executionRecord({ runId, attemptId: attempt.attemptId });
  await store.saveAttempt({ ...attempt, executionIds: [execution.executionId] });
  await store.createExecution(execution);
  await store.finishExecution(finishedTrace(execution.executionId).finished);
  await store.saveEvaluation(storedEvaluation({ evaluator: 'e.v1', status: 'passed' }, {}, execution));
  await store.saveEvaluation(storedEvaluation({ evaluator: 'e.v1', status: 'failed' }, {}, execution));
  // Two rows of one lineage: prune reports the latest row of each lineage (1 per run), and deletes both.
  await store.reserveJudgeRequest(runId, 5);
}

describe('PostgresExecutionStore.pruneRuns', () => {
  it('deletes whole runs and only what they reference, after a dry run that deletes nothing', async () => {
    const url = await cluster().createSchema();
    const store = new PostgresExecutionStore(url);
    await seedRun(store, 'run-old', '2026-01-01T00:00:00.000Z');
    await seedRun(store, 'run-mid', '2026-02-01T00:00:00.000Z');
    await seedRun(store, 'run-new', '2026-03-01T00:00:00.000Z');
    const blobs = await count(url, 'blobs');

    const dry = await store.pruneRuns({ keepRuns: 1 }, { dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, runIds: ['run-mid', 'run-old'], executionCount: 2, evaluationCount: 2 });
    expect((await store.listRuns()).length).toBe(3);

    const done = await store.pruneRuns({ olderThan: '2026-02-15T00:00:00Z' });
    expect(done).toMatchObject({
      dryRun: false,
      runIds: ['run-mid', 'run-old'],
      executionCount: 2,
      evaluationCount: 2,
    });
    expect(done.bytesAfter).toEqual(expect.any(Number));
    expect((await store.listRuns()).map((r) => r.runId)).toEqual(['run-new']);
    expect(await store.listAttempts({ runId: 'run-old' })).toEqual([]);
    expect(await store.listExecutions({ runId: 'run-mid' })).toEqual([]);
    expect((await store.listEvaluations({ runId: 'run-new' })).length).toBe(1);
    for (const table of ['executions', 'traces', 'attempts', 'evaluation_lineages', 'run_judge_requests']) {
      expect({ table, rows: await count(url, table) }).toEqual({ table, rows: 1 });
    }
    expect(await count(url, 'evaluations')).toBe(2);
    // Evidence no kept execution links is gone; the kept run still reads back whole.
    expect(blobs).toBeGreaterThan(0);
    const orphans =
      '(SELECT 1 FROM blobs b WHERE NOT EXISTS (SELECT 1 FROM execution_blobs eb WHERE eb.sha256 = b.sha256)) o';
    expect(await count(url, orphans)).toBe(0);
    expect(await count(url, 'blobs')).toBeGreaterThan(0);
    const [kept] = await store.listExecutions({ runId: 'run-new' });
    expect((await store.getTrace(kept!.executionId)).events.length).toBeGreaterThan(0);
    expect(await store.pruneRuns({ keepRuns: 1 })).toMatchObject({ runIds: [], executionCount: 0 });
    await expect(store.pruneRuns({ keepRuns: -1 })).rejects.toThrow(/keepRuns must be a whole number/);
    await store.close();
  });
});

describe('PostgresExecutionStore.reserveJudgeRequest', () => {
  it('never reserves more than the limit, however many processes ask at once', async () => {
    const url = await cluster().createSchema();
    const stores = [1, 2, 3, 4].map(() => new PostgresExecutionStore(url));
    await stores[0]!.open();
    const granted = await Promise.all(
      Array.from({ length: 40 }, (_, i) => stores[i % 4]!.reserveJudgeRequest('run-budget', 7)),
    );
    expect(granted.filter(Boolean)).toHaveLength(7);
    expect(await stores[0]!.reserveJudgeRequest('run-budget', 7)).toBe(false);
    expect(await stores[1]!.reserveJudgeRequest('run-budget', 8)).toBe(true); // a larger budget allows one more
    expect(await stores[2]!.reserveJudgeRequest('run-other', 0)).toBe(false);
    await Promise.all(stores.map((s) => s.close()));
  });
});

describe('PostgresExecutionStore.listExecutions paging', () => {
  it('pages executions in creation order and counts them', async () => {
    const store = new PostgresExecutionStore(await cluster().createSchema());
    const created = [3, 1, 4, 2, 5].map((minute) =>
      executionRecord({ runId: 'run-p', createdAt: `2026-03-02T10:0${minute}:00.000Z` }),
    );
    for (const execution of created) await store.createExecution(execution);
    const ordered = [...created].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((e) => e.executionId);
    expect((await store.listExecutions({ runId: 'run-p', limit: 2, offset: 1 })).map((e) => e.executionId)).toEqual(
      ordered.slice(1, 3),
    );
    expect((await store.listExecutions({ runId: 'run-p', offset: 4 })).map((e) => e.executionId)).toEqual(
      ordered.slice(4),
    );
    expect(await store.countExecutions({ runId: 'run-p' })).toBe(5);
    expect(await store.countExecutions({ runId: 'run-none' })).toBe(0);
    await store.close();
  });
});
