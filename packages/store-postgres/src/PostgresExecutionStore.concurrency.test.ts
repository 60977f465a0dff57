import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { clusterForTests } from '@sf-m3/test-utils/postgres';
import { PostgresExecutionStore } from './PostgresExecutionStore';

const WRITER = join(__dirname, '__fixtures__', 'concurrentWriter.js');
const cluster = clusterForTests();

function writer(
  url: string,
  worker: number,
  count: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [WRITER, url, String(worker), String(count)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // 'close', not 'exit': a process can exit before its last stdout chunk is read (seen under load).
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('PostgresExecutionStore across processes', () => {
  jest.setTimeout(180_000);

  it('four processes writing the same lineages at once lose no row, duplicate none, and keep one latest per lineage', async () => {
    const url = await cluster().createSchema();
    const results = await Promise.all([0, 1, 2, 3].map((w) => writer(url, w, 1000)));
    for (const result of results) expect(result).toMatchObject({ code: 0, stdout: 'done 1000\n', stderr: '' });

    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const counts = await client.query<{ n: string; ids: string; latest: string }>(
        'SELECT COUNT(*) AS n, COUNT(DISTINCT evaluation_id) AS ids, COUNT(*) FILTER (WHERE is_latest) AS latest FROM evaluations',
      );
      expect(counts.rows[0]).toEqual({ n: '4000', ids: '4000', latest: '50' });
      // The latest row of every lineage is its greatest (created_at, evaluation_id), and the lineage agrees.
      const wrong = await client.query(
        `SELECT l.lineage_id FROM evaluation_lineages l
           JOIN LATERAL (SELECT evaluation_id FROM evaluations e WHERE e.lineage_id = l.lineage_id
                          ORDER BY created_at DESC, evaluation_id DESC LIMIT 1) best ON TRUE
           JOIN evaluations latest ON latest.lineage_id = l.lineage_id AND latest.is_latest
          WHERE best.evaluation_id <> latest.evaluation_id OR l.latest_evaluation_id <> latest.evaluation_id
             OR l.required <> EXISTS (SELECT 1 FROM evaluations r WHERE r.lineage_id = l.lineage_id AND r.required)`,
      );
      expect(wrong.rows).toEqual([]);
    } finally {
      await client.end();
    }
    const store = new PostgresExecutionStore(url);
    const report = await store.aggregateEvaluations({ filters: { evaluator: ['concurrency.v1'] } });
    expect(report.totals.evaluationCount).toBe(50);
    expect((await store.listSuites()).map((s) => s.name)).toEqual(['shared suite']);
    const own = (await store.listExecutions({ runId: 'run-concurrency' })).map((e) => [e.executionId, e.outcome]);
    expect(own.sort()).toEqual([0, 1, 2, 3].map((w) => [`exec-own-${w}`, 'completed']));
    await store.close();
  });
});
