import {
  aggregationReportOfRows,
  canonicalInstant,
  checkedEvidenceDigest,
  evidenceDigestOf,
  ExecutionNotFound,
  ModelValidationError,
  normalizeSuiteName,
  requireId,
  requireJudgeRequestLimit,
  StoreError,
  TraceResult,
  TraceUnavailable,
  validateAggregationQuery,
  verifyRawEvidence,
  type AggregationCountsRow,
  type AggregationQuery,
  type AggregationReport,
  type AttemptRecord,
  type EvaluationLineage,
  type EvaluationResult,
  type EvidenceRef,
  type ExecutionRecord,
  type ExecutionListFilter,
  type ExecutionStore,
  type FinishedExecution,
  type PruneOptions,
  type PruneReport,
  type PruneSelection,
  type RawEvidence,
  type RunRecord,
  type SessionRecord,
  type StoredEvaluation,
  type SuiteRecord,
  type TraceEvent,
  type TraceView,
  type TurnRecord,
} from '@sf-m3/core';
import { aggregateCountsSql } from './aggregation/aggregateCountsSql';
import { encodeEventChunks } from './eventChunks';
import { frameTexts, insertEventChunks, readEvents } from './eventRows';
import { countJudgeRequestRows, reserveJudgeRequestRow } from './judgeBudget/reserveJudgeRequestRow';
import { immediateTransaction, type RetryPolicy, DEFAULT_RETRY } from './immediateTransaction';
import { lineageId } from './lineageId';
import { BUSY_TIMEOUT_MS, openDatabase, type OpenedDatabase } from './openDatabase';
import { pruneRunsOf } from './prune/pruneRunsOf';
import { sqliteErrorCode, type SqliteConnection } from './SqliteConnection';
import { runWorks, WriteQueue, type RowBatchKind } from './WriteQueue';
import {
  evaluationRow,
  insertEvaluationRow,
  insertEvaluationRows,
  REQUIRED_LINEAGE_SQL,
  REQUIRED_LINEAGE_V2_SQL,
  type EvaluationRow,
} from './evaluationRows';

/** Options of a SQLite store. */
export interface SQLiteExecutionStoreOptions {
  /** How write batches retry when other processes hold the lock. */
  readonly retry?: RetryPolicy;
  /** How long one statement waits for another writer's lock before a retry (default 5 000). */
  readonly busyTimeoutMs?: number;
  /**
   * Open an existing database for reading only (`m3 runs`, `m3 report`): nothing is created,
   * migrated or written, so a read-only file or folder works; every write rejects with `StoreError`.
   */
  readonly readOnly?: boolean;
}

const json = (value: unknown): string => JSON.stringify(value);

/** `executions x` rows of run ?1 (or any) linked to attempt ?2 (or any), directly or through attempt_executions. */
const EXECUTION_FILTER_SQL = `(?1 IS NULL OR x.run_id = ?1)
          AND (?2 IS NULL OR x.attempt_id = ?2
               OR EXISTS (SELECT 1 FROM attempt_executions ae WHERE ae.attempt_id = ?2 AND ae.execution_id = x.execution_id))`;

/**
 * The durable `ExecutionStore` on one SQLite file (`sqlite3` package). Opens lazily on first use,
 * creating parent folders; WAL, a busy timeout, and every write batch in one `BEGIN IMMEDIATE`
 * transaction retried on `SQLITE_BUSY`, so several Jest workers and processes can share a file.
 */
export class SQLiteExecutionStore implements ExecutionStore {
  /** The path given to the constructor. */
  readonly path: string;
  private readonly retry: RetryPolicy;
  private readonly busyTimeoutMs: number | undefined;
  private readonly readOnly: boolean;
  private opening: Promise<OpenedDatabase> | null = null;
  /** Set once open, so hot paths skip awaiting `opening`. */
  private opened: OpenedDatabase | null = null;
  private readonly queue: WriteQueue;
  /** Evaluation rows queued together are inserted by one statement (see `WriteQueue`). */
  private readonly evaluationRows: RowBatchKind<EvaluationRow> = {
    insert: (rows) => insertEvaluationRows(writerOf(this.opened!), rows),
  };
  private closed = false;

  constructor(path: string, options: SQLiteExecutionStoreOptions = {}) {
    this.path = path;
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.busyTimeoutMs = options.busyTimeoutMs;
    this.readOnly = options.readOnly === true;
    this.queue = new WriteQueue(async (works) => {
      const writer = writerOf(await this.database());
      await immediateTransaction(writer, () => runWorks(works), this.retry);
    });
  }

  /** Opens the database on first use (and retries the open after a failure). */
  private database(): Promise<OpenedDatabase> {
    if (this.closed)
      return Promise.reject(new StoreError('the execution store is closed: create a new store to read or write'));
    if (this.opening === null) {
      this.opening = openDatabase(this.path, { busyTimeoutMs: this.busyTimeoutMs, readOnly: this.readOnly });
      this.opening.then(
        (opened) => (this.opened = opened),
        () => (this.opening = null),
      );
    }
    return this.opening;
  }

  private async reader(): Promise<SqliteConnection> {
    return (await this.database()).reader;
  }

  /** Runs `work` with the writer connection inside the next write batch. */
  private write<T>(work: (db: SqliteConnection) => Promise<T>): Promise<T> {
    if (this.readOnly) return Promise.reject(readOnlyWrite(this.path));
    const writer = this.closed ? null : (this.opened?.writer ?? null);
    if (writer !== null) return this.queue.enqueue(() => work(writer));
    return this.database().then((opened) => this.queue.enqueue(() => work(writerOf(opened))));
  }

  /** Opens the database now (it otherwise opens on first use); surfaces path and schema errors early. */
  async open(): Promise<void> {
    await this.database();
  }

  // runs ---------------------------------------------------------------------------------------

  async saveRun(run: RunRecord): Promise<void> {
    requireId(run.runId, 'runId');
    const record = { ...run, startedAt: canonicalInstant(run.startedAt, 'startedAt') };
    await this.write((db) =>
      db.run(
        'INSERT INTO runs (run_id, started_at, record_json) VALUES (?, ?, ?) ' +
          'ON CONFLICT (run_id) DO UPDATE SET started_at = excluded.started_at, record_json = excluded.record_json',
        [record.runId, record.startedAt, json(record)],
      ),
    );
  }

  async getRun(runId: string): Promise<RunRecord | null> {
    const row = await (
      await this.reader()
    ).get<{ record_json: string }>('SELECT record_json FROM runs WHERE run_id = ?', [runId]);
    return row === undefined ? null : (JSON.parse(row.record_json) as RunRecord);
  }

  async listRuns(options: { limit?: number } = {}): Promise<RunRecord[]> {
    const limit = options.limit ?? -1;
    const rows = await (
      await this.reader()
    ).all<{ record_json: string }>('SELECT record_json FROM runs ORDER BY started_at DESC, run_id DESC LIMIT ?', [
      limit,
    ]);
    return rows.map((r) => JSON.parse(r.record_json) as RunRecord);
  }

  // suites -------------------------------------------------------------------------------------

  async registerSuite(name: string): Promise<SuiteRecord> {
    const trimmed = normalizeSuiteName(name);
    return this.write(async (db) => {
      await db.run('INSERT INTO suites (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', [
        trimmed,
        new Date().toISOString(),
      ]);
      const row = await db.get<{ suite_id: number; name: string; created_at: string }>(
        'SELECT suite_id, name, created_at FROM suites WHERE name = ?',
        [trimmed],
      );
      return { suiteId: row!.suite_id, name: row!.name, createdAt: row!.created_at };
    });
  }

  async listSuites(): Promise<SuiteRecord[]> {
    const rows = await (
      await this.reader()
    ).all<{ suite_id: number; name: string; created_at: string }>(
      'SELECT suite_id, name, created_at FROM suites ORDER BY suite_id',
    );
    return rows.map((r) => ({ suiteId: r.suite_id, name: r.name, createdAt: r.created_at }));
  }

  // attempts -----------------------------------------------------------------------------------

  async saveAttempt(attempt: AttemptRecord): Promise<void> {
    requireId(attempt.attemptId, 'attemptId');
    requireId(attempt.runId, 'runId');
    await this.write(async (db) => {
      await db.run(
        'INSERT INTO attempts (attempt_id, run_id, outcome, started_at, record_json) VALUES (?, ?, ?, ?, ?) ' +
          'ON CONFLICT (attempt_id) DO UPDATE SET run_id = excluded.run_id, outcome = excluded.outcome, ' +
          'started_at = excluded.started_at, record_json = excluded.record_json',
        [attempt.attemptId, attempt.runId, attempt.outcome, attempt.startedAt, json(attempt)],
      );
      await db.run('DELETE FROM attempt_executions WHERE attempt_id = ?', [attempt.attemptId]);
      for (const executionId of new Set(attempt.executionIds)) {
        await db.run('INSERT INTO attempt_executions (attempt_id, execution_id) VALUES (?, ?)', [
          attempt.attemptId,
          executionId,
        ]);
      }
    });
  }

  async listAttempts(filter: { runId: string }): Promise<AttemptRecord[]> {
    const rows = await (
      await this.reader()
    ).all<{ record_json: string }>(
      'SELECT record_json FROM attempts WHERE run_id = ? ORDER BY started_at, attempt_id',
      [filter.runId],
    );
    return rows.map((r) => JSON.parse(r.record_json) as AttemptRecord);
  }

  // executions ---------------------------------------------------------------------------------

  async createExecution(record: ExecutionRecord): Promise<void> {
    requireId(record.executionId, 'executionId');
    const stored: ExecutionRecord = { ...record, createdAt: canonicalInstant(record.createdAt, 'createdAt') };
    const labels = stored.labels;
    await this.write(async (db) => {
      try {
        await db.run(
          `INSERT INTO executions (execution_id, run_id, suite_name, case_id, attempt_id, created_at, finished_at, outcome,
             label_run_id, label_suite_name, label_case_id, server, transport, harness, model, trial, matrix_id,
             metadata_json, record_json)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            stored.executionId,
            stored.runId,
            stored.suiteName,
            stored.caseId,
            stored.attemptId,
            stored.createdAt,
            stored.finishedAt,
            stored.outcome,
            labels.runId,
            labels.suiteName,
            labels.caseId,
            labels.server,
            labels.transport,
            labels.harness,
            labels.model,
            labels.trial,
            labels.matrixId,
            json(labels.metadata ?? {}),
            json(stored),
          ],
        );
      } catch (error) {
        if (sqliteErrorCode(error) === 'SQLITE_CONSTRAINT') {
          throw new StoreError(`execution already exists: ${stored.executionId}`, { executionId: stored.executionId });
        }
        throw error;
      }
      for (const evaluator of new Set(stored.requiredEvaluators)) {
        await db.run('INSERT INTO execution_required (execution_id, evaluator) VALUES (?, ?)', [
          stored.executionId,
          evaluator,
        ]);
      }
    });
  }

  async finishExecution(finished: FinishedExecution): Promise<void> {
    const data = finished.trace.toJSON();
    if (data.executionId !== finished.executionId) {
      throw new ModelValidationError('finishExecution: the trace belongs to another execution', {
        executionId: finished.executionId,
      });
    }
    const finishedAt = canonicalInstant(finished.finishedAt, 'finishedAt');
    const blobs = finished.evidence.map((blob) => ({
      sha256: checkedEvidenceDigest(blob.reference, blob.bytes),
      blob,
    }));
    // One transaction: a crash leaves either the whole finished execution or the unfinished one.
    await this.write(async (db) => {
      const row = await db.get<{ record_json: string }>('SELECT record_json FROM executions WHERE execution_id = ?', [
        finished.executionId,
      ]);
      if (row === undefined) throw new ExecutionNotFound(finished.executionId);
      const record: ExecutionRecord = {
        ...(JSON.parse(row.record_json) as ExecutionRecord),
        outcome: finished.outcome,
        finishedAt,
        snapshot: finished.snapshot,
      };
      const id = finished.executionId;
      await db.run('UPDATE executions SET finished_at = ?, outcome = ?, record_json = ? WHERE execution_id = ?', [
        finishedAt,
        finished.outcome,
        json(record),
        id,
      ]);
      for (const table of ['events', 'event_chunks', 'traces', 'sessions', 'turns', 'execution_blobs']) {
        await db.run(`DELETE FROM ${table} WHERE execution_id = ?`, [id]);
      }
      await db.run(
        'INSERT INTO traces (execution_id, trace_id, completeness, limitations_json, event_count) VALUES (?, ?, ?, ?, ?)',
        [id, data.traceId, data.completeness, json(data.limitations), data.events.length],
      );
      await insertEventChunks(db, id, encodeEventChunks(id, data.events, frameTexts(blobs)));
      for (const { sha256, blob } of blobs) {
        await db.run(
          'INSERT INTO blobs (sha256, size_bytes, media_type, bytes) VALUES (?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING',
          [sha256, blob.bytes.length, blob.reference.mediaType, blob.bytes],
        );
        await db.run('INSERT OR IGNORE INTO execution_blobs (execution_id, sha256) VALUES (?, ?)', [id, sha256]);
      }
      for (const session of finished.sessions ?? []) {
        await db.run('INSERT INTO sessions (session_id, execution_id, created_at, record_json) VALUES (?, ?, ?, ?)', [
          session.sessionId,
          id,
          session.createdAt,
          json(session),
        ]);
      }
      for (const turn of finished.turns ?? []) {
        await db.run('INSERT INTO turns (turn_id, execution_id, turn_index, record_json) VALUES (?, ?, ?, ?)', [
          turn.turnId,
          id,
          turn.index,
          json(turn),
        ]);
      }
    });
  }

  async getExecution(executionId: string): Promise<ExecutionRecord> {
    const row = await (
      await this.reader()
    ).get<{ record_json: string }>('SELECT record_json FROM executions WHERE execution_id = ?', [executionId]);
    if (row === undefined) throw new ExecutionNotFound(executionId);
    return JSON.parse(row.record_json) as ExecutionRecord;
  }

  async listExecutions(filter: ExecutionListFilter): Promise<ExecutionRecord[]> {
    const rows = await (
      await this.reader()
    ).all<{ record_json: string }>(
      `SELECT record_json FROM executions x
        WHERE ${EXECUTION_FILTER_SQL}
        ORDER BY x.created_at, x.execution_id
        LIMIT ?3 OFFSET ?4`,
      [filter.runId ?? null, filter.attemptId ?? null, filter.limit ?? -1, filter.offset ?? 0],
    );
    return rows.map((r) => JSON.parse(r.record_json) as ExecutionRecord);
  }

  async countExecutions(filter: { runId?: string; attemptId?: string }): Promise<number> {
    const row = await (
      await this.reader()
    ).get<{ n: number }>(`SELECT COUNT(*) AS n FROM executions x WHERE ${EXECUTION_FILTER_SQL}`, [
      filter.runId ?? null,
      filter.attemptId ?? null,
    ]);
    return row?.n ?? 0;
  }

  async getTrace(executionId: string): Promise<TraceResult> {
    const db = await this.reader();
    const header = await db.get<{
      trace_id: string | null;
      completeness: string;
      limitations_json: string;
      event_count: number;
    }>(
      `SELECT t.trace_id, t.completeness, t.limitations_json, t.event_count
         FROM executions x LEFT JOIN traces t ON t.execution_id = x.execution_id WHERE x.execution_id = ?`,
      [executionId],
    );
    if (header === undefined) throw new ExecutionNotFound(executionId);
    if (header.trace_id === null) {
      throw new TraceUnavailable(`execution ${executionId} has no saved trace: it has not finished yet`, {
        executionId,
      });
    }
    let events: TraceEvent[];
    try {
      events = await readEvents(db, executionId, (await this.database()).schemaVersion);
    } catch (error) {
      throw new TraceUnavailable(`the saved trace of ${executionId} is unreadable: ${(error as Error).message}`, {
        executionId,
      });
    }
    if (events.length !== header.event_count) {
      throw new TraceUnavailable(
        `the saved trace of ${executionId} is incomplete: ${events.length} of ${header.event_count} events`,
        {
          executionId,
        },
      );
    }
    try {
      return TraceResult.fromJSON({
        traceId: header.trace_id,
        executionId,
        completeness: header.completeness as TraceResult['completeness'],
        limitations: JSON.parse(header.limitations_json) as string[],
        events,
      });
    } catch (error) {
      throw new TraceUnavailable(`the saved trace of ${executionId} is malformed: ${(error as Error).message}`, {
        executionId,
      });
    }
  }

  async getTraceView(executionId: string): Promise<TraceView> {
    return (await this.getTrace(executionId)).view();
  }

  async listSessions(executionId: string): Promise<SessionRecord[]> {
    await this.getExecution(executionId);
    const rows = await (
      await this.reader()
    ).all<{ record_json: string }>(
      'SELECT record_json FROM sessions WHERE execution_id = ? ORDER BY created_at, session_id',
      [executionId],
    );
    return rows.map((r) => JSON.parse(r.record_json) as SessionRecord);
  }

  async listTurns(executionId: string): Promise<TurnRecord[]> {
    await this.getExecution(executionId);
    const rows = await (
      await this.reader()
    ).all<{ record_json: string }>(
      'SELECT record_json FROM turns WHERE execution_id = ? ORDER BY turn_index, turn_id',
      [executionId],
    );
    return rows.map((r) => JSON.parse(r.record_json) as TurnRecord);
  }

  // evaluations --------------------------------------------------------------------------------

  async saveEvaluation(evaluation: StoredEvaluation): Promise<void> {
    const row = evaluationRow(evaluation);
    if (this.readOnly) throw readOnlyWrite(this.path);
    // Rows saved while a transaction runs are written together in the next one (multi-row inserts).
    const opened = this.opened !== null && !this.closed ? this.opened : await this.database();
    const writer = writerOf(opened);
    await this.queue.enqueueRow(this.evaluationRows, row, () => insertEvaluationRow(writer, row));
  }

  async listEvaluations(filter: {
    runId?: string;
    executionId?: string;
    evaluator?: string;
  }): Promise<EvaluationResult[]> {
    const rows = await (
      await this.reader()
    ).all<{ result_json: string }>(
      `SELECT result_json FROM evaluations
        WHERE is_latest = 1 AND (?1 IS NULL OR run_id = ?1) AND (?2 IS NULL OR execution_id = ?2) AND (?3 IS NULL OR evaluator = ?3)
        ORDER BY created_at, evaluation_id`,
      [filter.runId ?? null, filter.executionId ?? null, filter.evaluator ?? null],
    );
    return rows.map((r) => JSON.parse(r.result_json) as EvaluationResult);
  }

  async isRequiredLineage(lineage: EvaluationLineage): Promise<boolean> {
    const { reader, schemaVersion } = await this.database();
    const sql = schemaVersion < 3 ? REQUIRED_LINEAGE_V2_SQL : REQUIRED_LINEAGE_SQL;
    const row = await reader.get<{ required: number }>(sql, [lineageId(lineage)]);
    return row?.required === 1;
  }

  // raw evidence -------------------------------------------------------------------------------

  async readRawEvidence(ref: EvidenceRef, options: { maxBytes?: number } = {}): Promise<RawEvidence> {
    const sha256 = evidenceDigestOf(ref);
    const row = await (
      await this.reader()
    ).get<{ bytes: Buffer }>('SELECT bytes FROM blobs WHERE sha256 = ?', [sha256]);
    return verifyRawEvidence(ref, row === undefined ? null : Buffer.from(row.bytes), options);
  }

  // aggregation --------------------------------------------------------------------------------

  async aggregateEvaluations(query: AggregationQuery): Promise<AggregationReport> {
    const normalized = validateAggregationQuery(query);
    const { sql, params } = aggregateCountsSql(normalized);
    return aggregationReportOfRows(normalized, await (await this.reader()).all<AggregationCountsRow>(sql, params));
  }

  // judge budget (reports lane) ------------------------------------------------------------

  async reserveJudgeRequest(runId: string, limit: number): Promise<boolean> {
    requireId(runId, 'runId');
    // A spent budget (limit 0) needs no write, so it also answers on a read-only store.
    if (requireJudgeRequestLimit(limit) === 0) return false;
    return this.write((db) => reserveJudgeRequestRow(db, runId, limit));
  }

  async countJudgeRequests(runId: string): Promise<number> {
    requireId(runId, 'runId');
    return countJudgeRequestRows(await this.reader(), runId);
  }

  // retention: the work lives in prune/ ------------------------------------------------------------

  async pruneRuns(selection: PruneSelection, options: PruneOptions = {}): Promise<PruneReport> {
    const opened = await this.database();
    return pruneRunsOf(opened.path, this.busyTimeoutMs ?? BUSY_TIMEOUT_MS, selection, options, (work) =>
      this.write(work),
    );
  }

  /** Waits for queued writes, then closes both connections; idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.queue.idle();
    this.closed = true;
    const opening = this.opening;
    this.opening = null;
    this.opened = null;
    if (opening === null) return;
    const opened = await opening.catch(() => null);
    if (opened === null) return;
    await opened.writer?.close();
    await opened.reader.close();
  }
}

function writerOf(opened: OpenedDatabase): SqliteConnection {
  if (opened.writer === null) throw readOnlyWrite(opened.path);
  return opened.writer;
}

function readOnlyWrite(path: string): StoreError {
  return new StoreError(`the results database ${path} was opened read-only: open it without readOnly to write`, {
    path,
  });
}
