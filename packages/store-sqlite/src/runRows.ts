/**
 * The rows around a run's executions: the `runs` row of each run, the `suites` registry (one row
 * per suite name, shared by every run), and each run's `attempts` with the executions each
 * attempt made (`attempt_executions`). Writes run inside the caller's write transaction.
 */
import type { AttemptRecord, RunRecord, SuiteRecord } from '@sf-m3/core';
import type { SqliteConnection } from './SqliteConnection';

/** The columns of a `suites` row. */
interface SuiteRow {
  suite_id: number;
  name: string;
  created_at: string;
}

const suiteRecordOf = (row: SuiteRow): SuiteRecord => ({
  suiteId: row.suite_id,
  name: row.name,
  createdAt: row.created_at,
});

/** Inserts the run, or replaces its start time and record when it is stored already. */
export async function upsertRunRow(db: SqliteConnection, record: RunRecord): Promise<void> {
  await db.run(
    'INSERT INTO runs (run_id, started_at, record_json) VALUES (?, ?, ?) ' +
      'ON CONFLICT (run_id) DO UPDATE SET started_at = excluded.started_at, record_json = excluded.record_json',
    [record.runId, record.startedAt, JSON.stringify(record)],
  );
}

/** The stored run `runId`, or null. */
export async function readRunRecord(db: SqliteConnection, runId: string): Promise<RunRecord | null> {
  const row = await db.get<{ record_json: string }>('SELECT record_json FROM runs WHERE run_id = ?', [runId]);
  return row === undefined ? null : (JSON.parse(row.record_json) as RunRecord);
}

/** The stored runs, latest start first (then by id), at most `limit` of them (-1: all). */
export async function listRunRecords(db: SqliteConnection, limit: number): Promise<RunRecord[]> {
  const rows = await db.all<{ record_json: string }>(
    'SELECT record_json FROM runs ORDER BY started_at DESC, run_id DESC LIMIT ?',
    [limit],
  );
  return rows.map((r) => JSON.parse(r.record_json) as RunRecord);
}

/** The stored runs still `running`, latest start first, through the partial index `runs_running`. */
export async function listRunningRunRecords(db: SqliteConnection): Promise<RunRecord[]> {
  const rows = await db.all<{ record_json: string }>(
    "SELECT record_json FROM runs WHERE json_extract(record_json, '$.status') = 'running' " +
      'ORDER BY started_at DESC, run_id DESC',
  );
  return rows.map((r) => JSON.parse(r.record_json) as RunRecord);
}

/** Registers the suite `name` (already normalized) unless it is, and returns its row. */
export async function registerSuiteRow(db: SqliteConnection, name: string): Promise<SuiteRecord> {
  await db.run('INSERT INTO suites (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', [
    name,
    new Date().toISOString(),
  ]);
  const row = await db.get<SuiteRow>('SELECT suite_id, name, created_at FROM suites WHERE name = ?', [name]);
  return suiteRecordOf(row!);
}

/** Every registered suite, in registration order. */
export async function listSuiteRecords(db: SqliteConnection): Promise<SuiteRecord[]> {
  const rows = await db.all<SuiteRow>('SELECT suite_id, name, created_at FROM suites ORDER BY suite_id');
  return rows.map(suiteRecordOf);
}

/** Inserts or replaces the attempt, and replaces its links to the executions it made. */
export async function upsertAttemptRows(db: SqliteConnection, attempt: AttemptRecord): Promise<void> {
  await db.run(
    'INSERT INTO attempts (attempt_id, run_id, outcome, started_at, record_json) VALUES (?, ?, ?, ?, ?) ' +
      'ON CONFLICT (attempt_id) DO UPDATE SET run_id = excluded.run_id, outcome = excluded.outcome, ' +
      'started_at = excluded.started_at, record_json = excluded.record_json',
    [attempt.attemptId, attempt.runId, attempt.outcome, attempt.startedAt, JSON.stringify(attempt)],
  );
  await db.run('DELETE FROM attempt_executions WHERE attempt_id = ?', [attempt.attemptId]);
  for (const executionId of new Set(attempt.executionIds)) {
    await db.run('INSERT INTO attempt_executions (attempt_id, execution_id) VALUES (?, ?)', [
      attempt.attemptId,
      executionId,
    ]);
  }
}

/** The attempts of run `runId`, in start order (then by id). */
export async function listAttemptRecords(db: SqliteConnection, runId: string): Promise<AttemptRecord[]> {
  const rows = await db.all<{ record_json: string }>(
    'SELECT record_json FROM attempts WHERE run_id = ? ORDER BY started_at, attempt_id',
    [runId],
  );
  return rows.map((r) => JSON.parse(r.record_json) as AttemptRecord);
}
