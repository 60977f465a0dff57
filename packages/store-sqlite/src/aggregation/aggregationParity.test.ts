import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AggregationReport, InMemoryExecutionStore } from '@sf-m3/core';
import { GENERATED_HISTORY_QUERIES, prng, seedGeneratedHistory } from '@sf-m3/test-utils/store';
import { SQLiteExecutionStore } from '../SQLiteExecutionStore';

function rounded(report: AggregationReport): unknown {
  return JSON.parse(
    JSON.stringify(report, (_key, value: unknown) => (typeof value === 'number' ? Number(value.toFixed(9)) : value)),
  );
}

describe('aggregation parity: SQLite SQL == the pure engine of the in-memory store', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('gives identical reports for a generated history (seed %i)', async (seed) => {
    const memory = new InMemoryExecutionStore();
    const folder = mkdtempSync(join(tmpdir(), 'm3-parity-'));
    const sqlite = new SQLiteExecutionStore(join(folder, 'db.sqlite'));
    try {
      await seedGeneratedHistory([memory, sqlite], prng(seed));
      for (const query of GENERATED_HISTORY_QUERIES) {
        const expected = rounded(await memory.aggregateEvaluations(query));
        expect({ query, report: rounded(await sqlite.aggregateEvaluations(query)) }).toEqual({
          query,
          report: expected,
        });
      }
    } finally {
      await Promise.all([sqlite.close(), memory.close()]);
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
