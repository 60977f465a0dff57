import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AggregationReport, InMemoryExecutionStore } from '@sf-m3/core';
import { SQLiteExecutionStore } from '@sf-m3/store-sqlite';
import { clusterForTests } from '@sf-m3/test-utils/postgres';
import { PostgresExecutionStore } from '../PostgresExecutionStore';
import { GENERATED_HISTORY_QUERIES, prng, seedGeneratedHistory } from '@sf-m3/test-utils/store';

const cluster = clusterForTests();

function rounded(report: AggregationReport): unknown {
  return JSON.parse(
    JSON.stringify(report, (_key, value: unknown) => (typeof value === 'number' ? Number(value.toFixed(9)) : value)),
  );
}

describe('aggregation parity: PostgreSQL SQL == SQLite SQL == the in-memory engine', () => {
  jest.setTimeout(120_000);

  it.each([1, 2, 3, 4, 5, 6])('gives identical reports for a generated history (seed %i)', async (seed) => {
    const memory = new InMemoryExecutionStore();
    const folder = mkdtempSync(join(tmpdir(), 'm3-pg-parity-'));
    const sqlite = new SQLiteExecutionStore(join(folder, 'db.sqlite'));
    const postgres = new PostgresExecutionStore(await cluster().createSchema());
    try {
      await seedGeneratedHistory([memory, sqlite, postgres], prng(seed));
      for (const query of GENERATED_HISTORY_QUERIES) {
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
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
