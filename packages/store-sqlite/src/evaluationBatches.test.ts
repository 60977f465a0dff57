import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryExecutionStore, type StoredEvaluation, StoreError } from '@sf-m3/core';
import { executionRecord, storedEvaluation } from '@sf-m3/test-utils/store';
import { SQLiteExecutionStore } from './SQLiteExecutionStore';

// Concurrent saveEvaluation calls are coalesced by the write queue into one json_each insert per
// transaction (evaluationRows.ts). These tests put several rows of one lineage, in random order,
// into the same batch and into later batches, and compare with the in-memory store, which saves
// one row at a time: latest row per lineage, sticky required, and the rows left when one fails.

function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const sqlitePath = (): string => join(mkdtempSync(join(tmpdir(), 'm3-batches-')), 'executions.sqlite');

describe('evaluation rows written in batches', () => {
  it.each([1, 2, 3])('keep the latest row and sticky required of each lineage (seed %i)', async (seedValue) => {
    const random = prng(seedValue);
    const sqlite = new SQLiteExecutionStore(sqlitePath());
    const memory = new InMemoryExecutionStore();
    const execution = executionRecord({ runId: 'run-1', caseId: 'case-1' });
    await sqlite.createExecution(execution);
    await memory.createExecution(execution);
    const lineages = ['a', 'b', 'c'].flatMap((digest) => [null, 'turn-1'].map((turnId) => ({ digest, turnId })));
    const probes: StoredEvaluation[] = [];
    for (let batch = 0; batch < 4; batch += 1) {
      const rows = Array.from({ length: 12 }, () => {
        const lineage = lineages[Math.floor(random() * lineages.length)]!;
        return storedEvaluation(
          {
            evaluator: 'batch.v1',
            status: random() < 0.5 ? 'passed' : 'failed',
            required: random() < 0.2,
            turnId: lineage.turnId,
            subjectDigest: lineage.digest.repeat(64),
            // Few distinct instants, so ties are broken by evaluation id.
            createdAt: new Date(Date.UTC(2026, 2, 1, 0, 0, Math.floor(random() * 6))).toISOString(),
          },
          {},
          execution,
        );
      });
      probes.push(...rows);
      for (const row of rows) await memory.saveEvaluation(row);
      await Promise.all(rows.map((row) => sqlite.saveEvaluation(row)));
    }
    const ids = (list: { evaluationId: string }[]): string[] => list.map((e) => e.evaluationId).sort();
    expect(ids(await sqlite.listEvaluations({}))).toEqual(ids(await memory.listEvaluations({})));
    expect(ids(await sqlite.listEvaluations({}))).toHaveLength(
      new Set(probes.map((p) => p.result.subjectDigest + p.result.turnId)).size,
    );
    for (const probe of probes) {
      expect(await sqlite.isRequiredLineage(probe.result)).toBe(await memory.isRequiredLineage(probe.result));
    }
    const query = { filters: { evaluator: ['batch.v1'] }, groupBy: ['status' as const] };
    expect(await sqlite.aggregateEvaluations(query)).toEqual(await memory.aggregateEvaluations(query));
    await sqlite.close();
  });

  it('fail only the duplicate row of a batch; the others are saved', async () => {
    const sqlite = new SQLiteExecutionStore(sqlitePath());
    const execution = executionRecord();
    await sqlite.createExecution(execution);
    const first = storedEvaluation({ evaluator: 'batch.v1', subjectDigest: 'a'.repeat(64) }, {}, execution);
    await sqlite.saveEvaluation(first);
    const others = ['b', 'c'].map((d) =>
      storedEvaluation({ evaluator: 'batch.v1', subjectDigest: d.repeat(64) }, {}, execution),
    );
    const settled = await Promise.allSettled([
      sqlite.saveEvaluation(others[0]!),
      sqlite.saveEvaluation(first),
      sqlite.saveEvaluation(others[1]!),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const failure = (settled[1] as PromiseRejectedResult).reason as StoreError;
    expect(failure).toBeInstanceOf(StoreError);
    expect(failure.message).toContain(`${first.result.evaluationId} already exists`);
    expect((await sqlite.listEvaluations({})).map((e) => e.evaluationId).sort()).toEqual(
      [first, ...others].map((e) => e.result.evaluationId).sort(),
    );
    await sqlite.close();
  });
});
