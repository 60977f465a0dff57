import type { SqliteConnection } from '../SqliteConnection';

/** Rows a merge added to OUT, by table. */
export type MergedCounts = Record<MergedTable, number>;

/** The tables a merge copies; anything else in a file makes the merge refuse it (see mergeDatabases). */
export const MERGED_TABLES = [
  'runs',
  'suites',
  'attempts',
  'attempt_executions',
  'executions',
  'execution_required',
  'traces',
  'events',
  'event_chunks',
  'blobs',
  'execution_blobs',
  'sessions',
  'turns',
  'evaluations',
] as const;

/** One of `MERGED_TABLES`. */
export type MergedTable = (typeof MERGED_TABLES)[number];

/**
 * Tables a merge knows but does not copy: rebuilt from the copied rows (evaluation_lineages),
 * SQLite's own (sqlite_sequence), or meaningful only while a run writes its own file
 * (judge_requests: the `--judge-max-requests` counter of a run in progress).
 */
export const DERIVED_TABLES = ['evaluation_lineages', 'sqlite_sequence', 'judge_requests'] as const;

/** Rows keyed by ids that are the same in every file: copied as they are, existing keys kept. */
const KEYED: readonly MergedTable[] = [
  'execution_required',
  'traces',
  'events',
  'event_chunks',
  'blobs',
  'execution_blobs',
  'sessions',
  'turns',
];

async function columnsOf(db: SqliteConnection, table: string): Promise<string[]> {
  const rows = await db.all<{ name: string }>(`SELECT name FROM pragma_table_info('${table}', 'main')`);
  return rows.map((row) => row.name);
}

/**
 * Copies the rows of the attached shard `src` into `main`, keeping every row once. Every key is
 * global (run, attempt, execution, evaluation and session ids are random; blobs are keyed by
 * sha256; events and chunks by execution and sequence) except a suite's integer id, which is
 * local to a file: suites are matched by name and attempts' `suiteId` rewritten to OUT's id.
 * An execution OUT holds unfinished and the shard holds finished is replaced with the finished
 * one, and an unfinished attempt with a finished one; otherwise the row already in OUT stays.
 * Evaluations are appended with `is_latest = 0`; the caller rebuilds lineages afterwards from
 * `temp.merge_lineages`, which this fills.
 */
export async function copyShard(db: SqliteConnection, src: string): Promise<MergedCounts> {
  const added = Object.fromEntries(MERGED_TABLES.map((table) => [table, 0])) as MergedCounts;
  const run = async (table: MergedTable, sql: string): Promise<void> => {
    added[table] += (await db.run(sql)).changes;
  };
  await run(
    'suites',
    `INSERT INTO main.suites (name, created_at) SELECT name, created_at FROM ${src}.suites WHERE true
     ON CONFLICT (name) DO NOTHING`,
  );
  await run(
    'attempts',
    `INSERT INTO main.attempts (attempt_id, run_id, outcome, started_at, record_json)
     SELECT a.attempt_id, a.run_id, a.outcome, a.started_at,
            CASE WHEN json_extract(a.record_json, '$.suiteId') IS NULL THEN a.record_json
                 ELSE json_set(a.record_json, '$.suiteId',
                        (SELECT m.suite_id FROM main.suites m JOIN ${src}.suites s ON s.name = m.name
                          WHERE s.suite_id = json_extract(a.record_json, '$.suiteId'))) END
       FROM ${src}.attempts a WHERE true
     ON CONFLICT (attempt_id) DO UPDATE SET
       run_id = excluded.run_id, outcome = excluded.outcome, started_at = excluded.started_at,
       record_json = excluded.record_json
     WHERE attempts.outcome IS NULL AND excluded.outcome IS NOT NULL`,
  );
  await run(
    'attempt_executions',
    `INSERT OR IGNORE INTO main.attempt_executions (attempt_id, execution_id)
     SELECT attempt_id, execution_id FROM ${src}.attempt_executions`,
  );
  // A finished copy replaces an unfinished one; its children cascade away and come from the shard.
  await db.run(
    `DELETE FROM main.executions WHERE finished_at IS NULL
        AND execution_id IN (SELECT execution_id FROM ${src}.executions WHERE finished_at IS NOT NULL)`,
  );
  const executionColumns = (await columnsOf(db, 'executions')).join(', ');
  await run(
    'executions',
    `INSERT OR IGNORE INTO main.executions (${executionColumns}) SELECT ${executionColumns} FROM ${src}.executions`,
  );
  for (const table of KEYED) {
    const columns = (await columnsOf(db, table)).join(', ');
    await run(table, `INSERT OR IGNORE INTO main.${table} (${columns}) SELECT ${columns} FROM ${src}.${table}`);
  }
  const evaluationColumns = (await columnsOf(db, 'evaluations')).filter((c) => c !== 'row_id' && c !== 'is_latest');
  const listed = evaluationColumns.join(', ');
  await run(
    'evaluations',
    `INSERT OR IGNORE INTO main.evaluations (${listed}, is_latest)
     SELECT ${listed}, 0 FROM ${src}.evaluations ORDER BY row_id`,
  );
  await db.run(`INSERT OR IGNORE INTO temp.merge_lineages SELECT DISTINCT lineage_id FROM ${src}.evaluations`);
  return added;
}
