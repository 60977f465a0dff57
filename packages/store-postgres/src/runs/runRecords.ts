/**
 * The run-level records — runs, their attempts, and the suites executions are filed under — each
 * one row holding its JSON record. Writes run inside the caller's transaction; reads on the pool.
 */
import type { AttemptRecord, RunRecord, SuiteRecord } from '@sf-m3/core';
import type { Pool, PoolClient } from 'pg';

const json = (value: unknown): string => JSON.stringify(value);

/** Inserts the run's row, or replaces it when the run was saved before. */
export async function saveRun(db: PoolClient, record: RunRecord): Promise<void> {
  await db.query(
    `INSERT INTO runs (run_id, started_at, record_json) VALUES ($1, $2, $3)
     ON CONFLICT (run_id) DO UPDATE SET started_at = excluded.started_at, record_json = excluded.record_json`,
    [record.runId, record.startedAt, json(record)],
  );
}

/** The run saved under `runId`, or null. */
export async function getRun(pool: Pool, runId: string): Promise<RunRecord | null> {
  const { rows } = await pool.query<{ record_json: string }>('SELECT record_json FROM runs WHERE run_id = $1', [runId]);
  return rows.length === 0 ? null : (JSON.parse(rows[0]!.record_json) as RunRecord);
}

/** Runs, newest first, at most `limit` of them (all when `limit` is undefined). */
export async function listRuns(pool: Pool, limit: number | undefined): Promise<RunRecord[]> {
  const { rows } = await pool.query<{ record_json: string }>(
    'SELECT record_json FROM runs ORDER BY started_at DESC, run_id DESC LIMIT $1',
    [limit ?? null],
  );
  return rows.map((r) => JSON.parse(r.record_json) as RunRecord);
}

/** The runs still `running`, newest first, through the partial index `runs_running`. */
export async function listRunningRuns(pool: Pool): Promise<RunRecord[]> {
  const { rows } = await pool.query<{ record_json: string }>(
    "SELECT record_json FROM runs WHERE (record_json::jsonb ->> 'status') = 'running' ORDER BY started_at DESC, run_id DESC",
  );
  return rows.map((r) => JSON.parse(r.record_json) as RunRecord);
}

/** Upserts the attempt's row and replaces its links to the executions it lists. */
export async function saveAttempt(db: PoolClient, attempt: AttemptRecord): Promise<void> {
  await db.query(
    `INSERT INTO attempts (attempt_id, run_id, outcome, started_at, record_json) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (attempt_id) DO UPDATE SET run_id = excluded.run_id, outcome = excluded.outcome,
       started_at = excluded.started_at, record_json = excluded.record_json`,
    [attempt.attemptId, attempt.runId, attempt.outcome, attempt.startedAt, json(attempt)],
  );
  await db.query('DELETE FROM attempt_executions WHERE attempt_id = $1', [attempt.attemptId]);
  await db.query(
    'INSERT INTO attempt_executions (attempt_id, execution_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
    [attempt.attemptId, [...new Set(attempt.executionIds)]],
  );
}

/** The attempts of run `runId`, in the order they started. */
export async function listAttempts(pool: Pool, runId: string): Promise<AttemptRecord[]> {
  const { rows } = await pool.query<{ record_json: string }>(
    'SELECT record_json FROM attempts WHERE run_id = $1 ORDER BY started_at, attempt_id',
    [runId],
  );
  return rows.map((r) => JSON.parse(r.record_json) as AttemptRecord);
}

interface SuiteRow {
  suite_id: number;
  name: string;
  created_at: string;
}

const suiteOfRow = (row: SuiteRow): SuiteRecord => ({
  suiteId: row.suite_id,
  name: row.name,
  createdAt: row.created_at,
});

/** Adds suite `name` unless it exists (already normalised), and returns its row either way. */
export async function registerSuite(db: PoolClient, name: string): Promise<SuiteRecord> {
  await db.query('INSERT INTO suites (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    new Date().toISOString(),
  ]);
  const { rows } = await db.query<SuiteRow>('SELECT suite_id, name, created_at FROM suites WHERE name = $1', [name]);
  return suiteOfRow(rows[0]!);
}

/** Every suite, in the order they were registered. */
export async function listSuites(pool: Pool): Promise<SuiteRecord[]> {
  const { rows } = await pool.query<SuiteRow>('SELECT suite_id, name, created_at FROM suites ORDER BY suite_id');
  return rows.map(suiteOfRow);
}
