import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryExecutionStore, type AggregationQuery, type AggregationReport } from '@sf-m3/core';
import { SQLiteExecutionStore } from '@sf-m3/store-sqlite';
import { clusterForTests } from '../cluster/clusterForTests.testkit';
import { PostgresExecutionStore } from '../PostgresExecutionStore';
import { prng, seedGeneratedHistory } from './generatedHistory.testkit';

const cluster = clusterForTests();

function rounded(report: AggregationReport): unknown {
  return JSON.parse(
    JSON.stringify(report, (_key, value: unknown) => (typeof value === 'number' ? Number(value.toFixed(9)) : value)),
  );
}

const QUERIES: AggregationQuery[] = [
  { filters: { evaluator: ['a.v1'] } },
  { groupBy: ['evaluator', 'runId'] },
  { filters: { evaluator: ['a.v1'], runId: ['run-a'] }, groupBy: ['metadata.harness_config', 'time.day'] },
  { filters: { evaluator: ['b.v1'] }, groupBy: ['caseId', 'trial'] },
  { filters: { evaluator: ['a.v1'], model: ['m1', null] }, groupBy: ['time.week', 'tool'] },
  { filters: { evaluator: ['a.v1'], status: ['passed', 'error'] }, groupBy: ['turnId'] },
  { filters: { evaluator: ['a.v1'], 'metadata.harness_config': ['B', null] }, groupBy: ['executionId'] },
  { groupBy: ['evaluator', 'status'] },
  {
    filters: { evaluator: ['a.v1'] },
    groupBy: ['time.hour'],
    from: '2026-03-03T00:00:00Z',
    to: '2026-03-07T00:00:00Z',
  },
];

describe('aggregation parity: PostgreSQL SQL == SQLite SQL == the in-memory engine', () => {
  jest.setTimeout(120_000);

  it.each([1, 2, 3, 4, 5, 6])('gives identical reports for a generated history (seed %i)', async (seed) => {
    const memory = new InMemoryExecutionStore();
    const sqlite = new SQLiteExecutionStore(join(mkdtempSync(join(tmpdir(), 'm3-pg-parity-')), 'db.sqlite'));
    const postgres = new PostgresExecutionStore(await cluster().createSchema());
    try {
      await seedGeneratedHistory([memory, sqlite, postgres], prng(seed));
      for (const query of QUERIES) {
        const fromSqlite = rounded(await sqlite.aggregateEvaluations(query));
        expect({ query, report: rounded(await postgres.aggregateEvaluations(query)) }).toEqual({
          query,
          report: fromSqlite,
        });
        expect(fromSqlite).toEqual(rounded(await memory.aggregateEvaluations(query)));
      }
      expect(await postgres.listEvaluations({ runId: 'run-a' })).toEqual(
        await sqlite.listEvaluations({ runId: 'run-a' }),
      );
    } finally {
      await Promise.all([memory.close(), sqlite.close(), postgres.close()]);
    }
  });
});
