import type {
  AggregationQuery,
  AggregationReport,
  AttemptRecord,
  EvaluationLineage,
  EvaluationResult,
  EvidenceRef,
  ExecutionListFilter,
  ExecutionRecord,
  ExecutionStore,
  FinishedExecution,
  PruneOptions,
  PruneReport,
  PruneSelection,
  RawEvidence,
  RunRecord,
  SessionRecord,
  StoredEvaluation,
  SuiteRecord,
  TraceResult,
  TraceView,
  TurnRecord,
} from '@sf-m3/core';
import {
  type AggregationCountsRow,
  aggregationReportOfRows,
  canonicalInstant,
  checkedExecutionRecord,
  checkFinishedExecution,
  evidenceDigestOf,
  normalizeSuiteName,
  requireId,
  requireJudgeRequestLimit,
  validateAggregationQuery,
  verifyRawEvidence,
  StoreError,
} from '@sf-m3/core/store';
import { aggregateCountsSql } from './aggregation/aggregateCountsSql';
import { isRequiredLineageRow, listLatestEvaluations } from './evaluationReads';
import { readBlobBytes } from './evidenceBlobs';
import {
  countExecutionRows,
  listExecutionRecords,
  listSessionRecords,
  listTurnRecords,
  readExecutionRecord,
} from './executions/executionReads';
import { writeFinishedExecution } from './executions/finishExecutionRows';
import { insertExecution } from './executions/insertExecution';
import { readTrace } from './executions/readTrace';
import { countJudgeRequestRows, reserveJudgeRequestRow } from './judgeBudget/reserveJudgeRequestRow';
import { immediateTransaction, type RetryPolicy, DEFAULT_RETRY } from './immediateTransaction';
import { BUSY_TIMEOUT_MS, openDatabase, readOnlyWrite, writerOf, type OpenedDatabase } from './openDatabase';
import { pruneRunsOf } from './prune/pruneRunsOf';
import {
  listAttemptRecords,
  listRunRecords,
  listRunningRunRecords,
  listSuiteRecords,
  readRunRecord,
  registerSuiteRow,
  upsertAttemptRows,
  upsertRunRow,
} from './runRows';
import type { SqliteConnection } from './SqliteConnection';
import { runWorks, WriteQueue, type RowBatchKind } from './WriteQueue';
import { evaluationRow, insertEvaluationRow, insertEvaluationRows, type EvaluationRow } from './evaluationRows';

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
  /**
   * Receives one line when a read-only store reads a private copy instead of the file (a `-wal`
   * with no `-shm` in a read-only folder; see privateReadCopy.ts). Default: nothing is said.
   */
  readonly onNotice?: (line: string) => void;
}

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
  private readonly onNotice: ((line: string) => void) | undefined;
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
    this.onNotice = options.onNotice;
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
      this.opening = openDatabase(this.path, {
        busyTimeoutMs: this.busyTimeoutMs,
        readOnly: this.readOnly,
        onNotice: this.onNotice,
      });
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

  // runs, suites and attempts: the rows live in runRows --------------------------------------

  async saveRun(run: RunRecord): Promise<void> {
    requireId(run.runId, 'runId');
    const record = { ...run, startedAt: canonicalInstant(run.startedAt, 'startedAt') };
    await this.write((db) => upsertRunRow(db, record));
  }

  async getRun(runId: string): Promise<RunRecord | null> {
    return readRunRecord(await this.reader(), runId);
  }

  async listRuns(options: { limit?: number } = {}): Promise<RunRecord[]> {
    const limit = options.limit ?? -1;
    return listRunRecords(await this.reader(), limit);
  }

  async listRunningRuns(): Promise<RunRecord[]> {
    return listRunningRunRecords(await this.reader());
  }

  async registerSuite(name: string): Promise<SuiteRecord> {
    const trimmed = normalizeSuiteName(name);
    return this.write((db) => registerSuiteRow(db, trimmed));
  }

  async listSuites(): Promise<SuiteRecord[]> {
    return listSuiteRecords(await this.reader());
  }

  async saveAttempt(attempt: AttemptRecord): Promise<void> {
    requireId(attempt.attemptId, 'attemptId');
    requireId(attempt.runId, 'runId');
    await this.write((db) => upsertAttemptRows(db, attempt));
  }

  async listAttempts(filter: { runId: string }): Promise<AttemptRecord[]> {
    return listAttemptRecords(await this.reader(), filter.runId);
  }

  // executions: the rows live in executions/ ---------------------------------------------------

  async createExecution(record: ExecutionRecord): Promise<void> {
    const stored = checkedExecutionRecord(record);
    await this.write((db) => insertExecution(db, stored));
  }

  async finishExecution(finished: FinishedExecution): Promise<void> {
    const checked = checkFinishedExecution(finished);
    // One transaction: a crash leaves either the whole finished execution or the unfinished one.
    await this.write((db) => writeFinishedExecution(db, checked));
  }

  async getExecution(executionId: string): Promise<ExecutionRecord> {
    return readExecutionRecord(await this.reader(), executionId);
  }

  async listExecutions(filter: ExecutionListFilter): Promise<ExecutionRecord[]> {
    return listExecutionRecords(await this.reader(), filter);
  }

  async countExecutions(filter: { runId?: string; attemptId?: string }): Promise<number> {
    return countExecutionRows(await this.reader(), filter);
  }

  async getTrace(executionId: string): Promise<TraceResult> {
    return readTrace(await this.reader(), executionId, async () => (await this.database()).schemaVersion);
  }

  async getTraceView(executionId: string): Promise<TraceView> {
    return (await this.getTrace(executionId)).view();
  }

  async listSessions(executionId: string): Promise<SessionRecord[]> {
    await this.getExecution(executionId);
    return listSessionRecords(await this.reader(), executionId);
  }

  async listTurns(executionId: string): Promise<TurnRecord[]> {
    await this.getExecution(executionId);
    return listTurnRecords(await this.reader(), executionId);
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
    return listLatestEvaluations(await this.reader(), filter);
  }

  async isRequiredLineage(lineage: EvaluationLineage): Promise<boolean> {
    const { reader, schemaVersion } = await this.database();
    return isRequiredLineageRow(reader, schemaVersion, lineage);
  }

  // raw evidence -------------------------------------------------------------------------------

  async readRawEvidence(ref: EvidenceRef, options: { maxBytes?: number } = {}): Promise<RawEvidence> {
    const sha256 = evidenceDigestOf(ref);
    return verifyRawEvidence(ref, await readBlobBytes(await this.reader(), sha256), options);
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
    try {
      await opened.writer?.close();
      await opened.reader.close();
    } finally {
      opened.privateCopy?.remove();
    }
  }
}
