/**
 * The SQLite schema of sf-m3, as forward migrations. `PRAGMA user_version` holds the number of
 * migrations applied; opening a database applies the missing ones in order, inside one
 * `BEGIN IMMEDIATE` transaction, and refuses a database whose version is newer than this code.
 * Never edit a shipped migration: append a new one.
 */
import { SF_M3_APPLICATION_ID } from './databaseIdentity';

const V1 = `
CREATE TABLE runs (
  run_id TEXT PRIMARY KEY,
  started_at TEXT NOT NULL,
  record_json TEXT NOT NULL
);
CREATE INDEX runs_started ON runs(started_at DESC, run_id DESC);

CREATE TABLE suites (
  suite_id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);

CREATE TABLE attempts (
  attempt_id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL,
  outcome TEXT,
  started_at TEXT NOT NULL,
  record_json TEXT NOT NULL
);
CREATE INDEX attempts_run ON attempts(run_id, started_at, attempt_id);

CREATE TABLE attempt_executions (
  attempt_id TEXT NOT NULL REFERENCES attempts(attempt_id) ON DELETE CASCADE,
  execution_id TEXT NOT NULL,
  PRIMARY KEY (attempt_id, execution_id)
) WITHOUT ROWID;
CREATE INDEX attempt_executions_execution ON attempt_executions(execution_id);

CREATE TABLE executions (
  execution_id TEXT PRIMARY KEY,
  run_id TEXT,
  suite_name TEXT,
  case_id TEXT,
  attempt_id TEXT,
  created_at TEXT NOT NULL,
  finished_at TEXT,
  outcome TEXT,
  label_run_id TEXT,
  label_suite_name TEXT,
  label_case_id TEXT,
  server TEXT,
  transport TEXT,
  harness TEXT,
  model TEXT,
  trial TEXT,
  matrix_id TEXT,
  metadata_json TEXT NOT NULL DEFAULT '{}',
  record_json TEXT NOT NULL
);
CREATE INDEX executions_run ON executions(run_id, created_at, execution_id);
CREATE INDEX executions_attempt ON executions(attempt_id);
CREATE INDEX executions_created ON executions(created_at);

CREATE TABLE execution_required (
  execution_id TEXT NOT NULL REFERENCES executions(execution_id) ON DELETE CASCADE,
  evaluator TEXT NOT NULL,
  PRIMARY KEY (execution_id, evaluator)
) WITHOUT ROWID;
CREATE INDEX execution_required_evaluator ON execution_required(evaluator, execution_id);

CREATE TABLE traces (
  execution_id TEXT PRIMARY KEY REFERENCES executions(execution_id) ON DELETE CASCADE,
  trace_id TEXT NOT NULL,
  completeness TEXT NOT NULL,
  limitations_json TEXT NOT NULL,
  event_count INTEGER NOT NULL
);

CREATE TABLE events (
  execution_id TEXT NOT NULL REFERENCES executions(execution_id) ON DELETE CASCADE,
  sequence INTEGER NOT NULL CHECK (sequence >= 0),
  kind TEXT NOT NULL,
  event_json TEXT NOT NULL,
  PRIMARY KEY (execution_id, sequence)
) WITHOUT ROWID;

CREATE TABLE blobs (
  sha256 TEXT PRIMARY KEY,
  size_bytes INTEGER NOT NULL CHECK (size_bytes >= 0),
  media_type TEXT NOT NULL,
  bytes BLOB NOT NULL
);
CREATE TABLE execution_blobs (
  execution_id TEXT NOT NULL REFERENCES executions(execution_id) ON DELETE CASCADE,
  sha256 TEXT NOT NULL REFERENCES blobs(sha256),
  PRIMARY KEY (execution_id, sha256)
) WITHOUT ROWID;

CREATE TABLE sessions (
  session_id TEXT PRIMARY KEY,
  execution_id TEXT NOT NULL REFERENCES executions(execution_id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  record_json TEXT NOT NULL
);
CREATE INDEX sessions_execution ON sessions(execution_id, created_at);

CREATE TABLE turns (
  turn_id TEXT PRIMARY KEY,
  execution_id TEXT NOT NULL REFERENCES executions(execution_id) ON DELETE CASCADE,
  turn_index INTEGER NOT NULL,
  record_json TEXT NOT NULL
);
CREATE INDEX turns_execution ON turns(execution_id, turn_index);

-- Append-only rows. Label columns are written with each row so aggregation is plain SQL;
-- is_latest marks the latest row of its lineage (kept by the trigger below).
CREATE TABLE evaluations (
  row_id INTEGER PRIMARY KEY,
  evaluation_id TEXT NOT NULL UNIQUE,
  evaluator TEXT NOT NULL,
  lineage_id INTEGER NOT NULL,
  subject_digest TEXT NOT NULL,
  execution_id TEXT,
  turn_id TEXT,
  status TEXT NOT NULL CHECK (status IN ('passed','failed','inconclusive','error','not_run')),
  score REAL,
  required INTEGER NOT NULL CHECK (required IN (0, 1)),
  created_at TEXT NOT NULL,
  execution_created_at TEXT NOT NULL,
  run_id TEXT,
  suite_name TEXT,
  case_id TEXT,
  server TEXT,
  tool TEXT,
  transport TEXT,
  harness TEXT,
  model TEXT,
  trial TEXT,
  judge_model TEXT,
  rubric_id TEXT,
  matrix_id TEXT,
  metadata_json TEXT NOT NULL DEFAULT '{}',
  result_json TEXT NOT NULL,
  is_latest INTEGER NOT NULL DEFAULT 1
);

-- One row per lineage (execution, turn, evaluator, subject digest), keyed by a 64-bit digest of
-- that tuple (see lineageId.ts): a small integer key keeps this lookup as cheap as a plain insert.
CREATE TABLE evaluation_lineages (
  lineage_id INTEGER PRIMARY KEY,
  latest_row_id INTEGER NOT NULL,
  latest_created_at TEXT NOT NULL,
  latest_evaluation_id TEXT NOT NULL,
  required INTEGER NOT NULL
);

-- The writer inserts a row with is_latest already computed (0 when its lineage has a later row).
-- Before a row that supersedes the lineage's latest goes in, that latest steps down; the WHEN
-- clause skips the UPDATE (and its index cursors) for the common case of a new lineage.
CREATE TRIGGER evaluations_demote_previous BEFORE INSERT ON evaluations
WHEN NEW.is_latest = 1 AND EXISTS (SELECT 1 FROM evaluation_lineages l WHERE l.lineage_id = NEW.lineage_id)
BEGIN
  UPDATE evaluations SET is_latest = 0
   WHERE row_id = (SELECT l.latest_row_id FROM evaluation_lineages l WHERE l.lineage_id = NEW.lineage_id
                      AND (l.latest_created_at, l.latest_evaluation_id) < (NEW.created_at, NEW.evaluation_id));
END;

-- After the row is in, the lineage points at its latest row and remembers "required" (sticky).
CREATE TRIGGER evaluations_keep_lineage AFTER INSERT ON evaluations BEGIN
  INSERT INTO evaluation_lineages (lineage_id, latest_row_id, latest_created_at, latest_evaluation_id, required)
  VALUES (NEW.lineage_id, NEW.row_id, NEW.created_at, NEW.evaluation_id, NEW.required)
  ON CONFLICT (lineage_id) DO UPDATE SET
    required = MAX(required, excluded.required),
    latest_row_id = CASE WHEN (excluded.latest_created_at, excluded.latest_evaluation_id) > (latest_created_at, latest_evaluation_id)
                         THEN excluded.latest_row_id ELSE latest_row_id END,
    latest_evaluation_id = CASE WHEN (excluded.latest_created_at, excluded.latest_evaluation_id) > (latest_created_at, latest_evaluation_id)
                         THEN excluded.latest_evaluation_id ELSE latest_evaluation_id END,
    latest_created_at = MAX(latest_created_at, excluded.latest_created_at);
END;

-- Indexes serve the selective labels: every aggregation is scoped to one evaluator (or groups by
-- it), and within an evaluator runs, suites, cases and executions narrow the rows. The
-- low-cardinality labels (status, server, tool, transport, harness, model, trial, judge model,
-- rubric, matrix, metadata) are filtered during that scan: an index on a handful of distinct
-- values would cost every insert more than it could save a query (see README, Benchmark).
CREATE INDEX evaluations_by_evaluator ON evaluations(evaluator, execution_created_at) WHERE is_latest = 1;
CREATE INDEX evaluations_by_run ON evaluations(run_id, evaluator) WHERE is_latest = 1;
CREATE INDEX evaluations_by_suite ON evaluations(suite_name, evaluator) WHERE is_latest = 1;
CREATE INDEX evaluations_by_case ON evaluations(case_id, evaluator) WHERE is_latest = 1;
CREATE INDEX evaluations_by_execution ON evaluations(execution_id, evaluator, turn_id);
`;

// Version 2: a trace's events are stored EVENTS_PER_CHUNK to a row, deflated, with the fields a
// reader derives replaced by markers (see eventChunks.ts): ~28 KB per direct execution became a
// few KB. Rows already in events stay there and are still read: rewriting them here would
// hold the write lock of a large history for as long as that takes, while Jest workers wait.
// The application id marks the file as sf-m3's, so opening never mistakes another program's
// database for one (older files are recognised by their tables).
const V2 = `
CREATE TABLE event_chunks (
  execution_id TEXT NOT NULL REFERENCES executions(execution_id) ON DELETE CASCADE,
  first_sequence INTEGER NOT NULL CHECK (first_sequence >= 0),
  event_count INTEGER NOT NULL CHECK (event_count > 0),
  format INTEGER NOT NULL,
  body BLOB NOT NULL,
  PRIMARY KEY (execution_id, first_sequence)
);
PRAGMA application_id = ${SF_M3_APPLICATION_ID};
`;

// Version 3: a faster write path (issue 15). Rows are written in batches (evaluationRows.ts) that
// keep their lineages themselves, so the per-row triggers go and nothing reads evaluation_lineages
// any more: a lineage's rows are found by lineage_id (same key as before) in one integer index, the
// latest row is still marked by is_latest, and "required" stays sticky because any required row of
// the lineage counts (rows are never deleted one by one). evaluation_lineages stays, no longer kept
// current by inserts: tools that rebuild lineages after deleting or copying rows (prune, merge)
// may still write it; a later schema can drop it. The evaluator, suite and case indexes served
// only aggregations, which read most of an evaluator's rows and are as fast scanning the table
// (see README, Benchmark). Kept: the run index (one run among many) and the execution index (an
// execution's rows; the missing-required check). Creating the lineage index reads every row once,
// inside the migration's transaction.
const V3 = `
DROP TRIGGER IF EXISTS evaluations_demote_previous;
DROP TRIGGER IF EXISTS evaluations_keep_lineage;
DROP INDEX IF EXISTS evaluations_by_evaluator;
DROP INDEX IF EXISTS evaluations_by_suite;
DROP INDEX IF EXISTS evaluations_by_case;
CREATE INDEX evaluations_by_lineage ON evaluations(lineage_id);
`;

// Version 4 (judge budget, `m3 test --judge-max-requests`): judge requests counted per run, one
// row per run, incremented by one UPSERT so workers in several processes never overshoot the cap.
const V4 = `
CREATE TABLE judge_requests (
  run_id TEXT PRIMARY KEY,
  used INTEGER NOT NULL CHECK (used >= 0)
);
`;

// Version 5 (abandoned runs): the runs still \`running\` are found by a partial index, without reading
// the whole history, so every run start, \`m3 runs\` and \`m3 report\` can close those whose processes
// are gone (closeAbandonedRuns). The status stays in record_json; the index reads it from there.
const V5 = `
CREATE INDEX runs_running ON runs(started_at DESC, run_id DESC)
  WHERE json_extract(record_json, '$.status') = 'running';
`;

/** Forward migrations; index + 1 is the schema version each produces. */
export const MIGRATIONS: readonly string[] = [V1, V2, V3, V4, V5];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;
