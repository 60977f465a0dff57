import type {
  AggregationQuery,
  AggregationReport,
  AttemptRecord,
  EvaluationLineage,
  EvaluationResult,
  EvidenceRef,
  ExecutionRecord,
  ExecutionStore,
  FinishedExecution,
  PruneOptions,
  PruneReport,
  PruneSelection,
  RawEvidence,
  RunRecord,
  RunShardRecord,
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
  evidenceDigestOf,
  normalizeSuiteName,
  requireId,
  requireJudgeRequestLimit,
  validateAggregationQuery,
  verifyRawEvidence,
  ModelValidationError,
  StoreError,
} from '@sf-m3/core/store';
import type { Pool, PoolClient } from 'pg';
import { aggregateCountsSql } from './aggregation/aggregateSql';
import { describeDatabase, type PostgresLocation } from './connection/describeDatabase';
import { openPool } from './connection/openPool';
import { transaction } from './connection/transaction';
import { evaluationRow } from './evaluations/evaluationRow';
import { EvaluationWriter } from './evaluations/EvaluationWriter';
import { isRequiredLineage, listEvaluations } from './evaluations/readEvaluations';
import { insertExecution } from './executions/insertExecution';
import {
  countExecutions,
  getExecution,
  listExecutions,
  readTrace,
  sessionsOfExecution,
  turnsOfExecution,
} from './executions/readExecutions';
import { prepareFinishedExecution, writeFinishedExecution } from './executions/writeFinishedExecution';
import { countJudgeRequests, reserveJudgeRequest } from './judge/reserveJudgeRequest';
import { pruneRuns } from './retention/pruneRuns';
import {
  getRun,
  listAttempts,
  listRunningRuns,
  listRuns,
  listSuites,
  registerSuite,
  saveAttempt,
  saveRun,
} from './runs/runRecords';
import { listRunShards, recordShard } from './shards/recordShard';

/** Options of a PostgreSQL store. */
export interface PostgresExecutionStoreOptions {
  /** Connections this store's pool may open (default 4: each Jest worker has its own store). */
  readonly maxConnections?: number;
  /**
   * Read only (`m3 runs`, `m3 report`): nothing is created or migrated, every transaction is
   * `READ ONLY`, and every write rejects with `StoreError`.
   */
  readonly readOnly?: boolean;
}

/**
 * The durable `ExecutionStore` on a PostgreSQL database (`pg` package), for histories that many
 * processes and machines write at once (sharded CI). Connects lazily on first use and migrates the
 * schema then; every multi-row write is one transaction; evaluation rows are batched and ordered by
 * per-lineage advisory locks. Credentials in the URL never appear in a message.
 */
export class PostgresExecutionStore implements ExecutionStore {
  /** The database, credentials redacted (safe to print). */
  readonly location: string;
  private readonly target: PostgresLocation;
  private readonly options: PostgresExecutionStoreOptions;
  private opening: Promise<Pool> | null = null;
  private readonly evaluations: EvaluationWriter;
  private closed = false;

  constructor(location: PostgresLocation, options: PostgresExecutionStoreOptions = {}) {
    if (typeof location !== 'string' && (location === null || typeof location !== 'object')) {
      throw new ModelValidationError('PostgresExecutionStore needs a postgres:// URL or a pg pool configuration');
    }
    this.target = location;
    this.location = describeDatabase(location);
    this.options = options;
    this.evaluations = new EvaluationWriter(() => this.pool());
  }

  private pool(): Promise<Pool> {
    if (this.closed) {
      return Promise.reject(new StoreError('the execution store is closed: create a new store to read or write'));
    }
    if (this.opening === null) {
      this.opening = openPool(this.target, this.location, this.options);
      this.opening.catch(() => (this.opening = null));
    }
    return this.opening;
  }

  private assertWritable(): void {
    if (this.options.readOnly === true) {
      throw new StoreError(
        `the results database ${this.location} was opened read-only: open it without readOnly to write`,
      );
    }
  }

  private async write<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    this.assertWritable();
    return transaction(await this.pool(), work);
  }

  private async query<R extends object>(text: string, values: unknown[] = []): Promise<R[]> {
    return (await (await this.pool()).query<R>(text, values)).rows;
  }

  /** Connects and migrates now (otherwise on first use); surfaces connection and schema errors early. */
  async open(): Promise<void> {
    await this.pool();
  }

  // runs ---------------------------------------------------------------------------------------

  async saveRun(run: RunRecord): Promise<void> {
    requireId(run.runId, 'runId');
    const record = { ...run, startedAt: canonicalInstant(run.startedAt, 'startedAt') };
    await this.write((db) => saveRun(db, record));
  }

  async getRun(runId: string): Promise<RunRecord | null> {
    return getRun(await this.pool(), runId);
  }

  async listRuns(options: { limit?: number } = {}): Promise<RunRecord[]> {
    return listRuns(await this.pool(), options.limit);
  }

  async listRunningRuns(): Promise<RunRecord[]> {
    return listRunningRuns(await this.pool());
  }

  // shards -------------------------------------------------------------------------------------

  async recordRunShard(shard: RunShardRecord): Promise<RunShardRecord[]> {
    requireId(shard.runId, 'runId');
    return this.write((db) => recordShard(db, shard));
  }

  async listRunShards(runId: string): Promise<RunShardRecord[]> {
    return listRunShards(await this.pool(), runId);
  }

  // retention (method of the retention lane's contract) ------------------------------------------

  /** Deletes whole runs and what only they reference, then VACUUMs (see retention/pruneRuns.ts). */
  async pruneRuns(selection: PruneSelection, options: PruneOptions = {}): Promise<PruneReport> {
    if (options.dryRun !== true) this.assertWritable();
    return pruneRuns(await this.pool(), selection, options);
  }

  // judge budget (method of the reports lane's contract) -----------------------------------------

  /** Atomically counts one judge request for the run unless `limit` were counted; false when spent. */
  async reserveJudgeRequest(runId: string, limit: number): Promise<boolean> {
    requireId(runId, 'runId');
    // A spent budget (limit 0) needs no write, so it also answers on a read-only store.
    if (requireJudgeRequestLimit(limit) === 0) return false;
    this.assertWritable();
    return reserveJudgeRequest(await this.pool(), runId, limit);
  }

  async countJudgeRequests(runId: string): Promise<number> {
    requireId(runId, 'runId');
    return countJudgeRequests(await this.pool(), runId);
  }

  // suites -------------------------------------------------------------------------------------

  async registerSuite(name: string): Promise<SuiteRecord> {
    const trimmed = normalizeSuiteName(name);
    return this.write((db) => registerSuite(db, trimmed));
  }

  async listSuites(): Promise<SuiteRecord[]> {
    return listSuites(await this.pool());
  }

  // attempts -----------------------------------------------------------------------------------

  async saveAttempt(attempt: AttemptRecord): Promise<void> {
    requireId(attempt.attemptId, 'attemptId');
    requireId(attempt.runId, 'runId');
    await this.write((db) => saveAttempt(db, attempt));
  }

  async listAttempts(filter: { runId: string }): Promise<AttemptRecord[]> {
    return listAttempts(await this.pool(), filter.runId);
  }

  // executions ---------------------------------------------------------------------------------

  async createExecution(record: ExecutionRecord): Promise<void> {
    const stored = checkedExecutionRecord(record);
    await this.write((db) => insertExecution(db, stored));
  }

  async finishExecution(finished: FinishedExecution): Promise<void> {
    const prepared = prepareFinishedExecution(finished);
    // One transaction: a crash leaves either the whole finished execution or the unfinished one.
    await this.write((db) => writeFinishedExecution(db, prepared));
  }

  async getExecution(executionId: string): Promise<ExecutionRecord> {
    return getExecution(await this.pool(), executionId);
  }

  /** Ordered by creation; `limit`/`offset` page through them (viewer lane's paging). */
  async listExecutions(filter: {
    runId?: string;
    attemptId?: string;
    limit?: number;
    offset?: number;
  }): Promise<ExecutionRecord[]> {
    return listExecutions(await this.pool(), filter);
  }

  /** How many executions `listExecutions` would list without paging. */
  async countExecutions(filter: { runId?: string; attemptId?: string }): Promise<number> {
    return countExecutions(await this.pool(), filter);
  }

  async getTrace(executionId: string): Promise<TraceResult> {
    return readTrace(await this.pool(), executionId);
  }

  async getTraceView(executionId: string): Promise<TraceView> {
    return (await this.getTrace(executionId)).view();
  }

  async listSessions(executionId: string): Promise<SessionRecord[]> {
    await this.getExecution(executionId);
    return sessionsOfExecution(await this.pool(), executionId);
  }

  async listTurns(executionId: string): Promise<TurnRecord[]> {
    await this.getExecution(executionId);
    return turnsOfExecution(await this.pool(), executionId);
  }

  // evaluations --------------------------------------------------------------------------------

  async saveEvaluation(evaluation: StoredEvaluation): Promise<void> {
    const row = evaluationRow(evaluation);
    this.assertWritable();
    await this.evaluations.save(row);
  }

  async listEvaluations(filter: {
    runId?: string;
    executionId?: string;
    evaluator?: string;
  }): Promise<EvaluationResult[]> {
    return listEvaluations(await this.pool(), filter);
  }

  async isRequiredLineage(lineage: EvaluationLineage): Promise<boolean> {
    return isRequiredLineage(await this.pool(), lineage);
  }

  // raw evidence -------------------------------------------------------------------------------

  async readRawEvidence(ref: EvidenceRef, options: { maxBytes?: number } = {}): Promise<RawEvidence> {
    const sha256 = evidenceDigestOf(ref);
    const rows = await this.query<{ bytes: Buffer }>('SELECT bytes FROM blobs WHERE sha256 = $1', [sha256]);
    return verifyRawEvidence(ref, rows[0]?.bytes ?? null, options);
  }

  // aggregation --------------------------------------------------------------------------------

  async aggregateEvaluations(query: AggregationQuery): Promise<AggregationReport> {
    const normalized = validateAggregationQuery(query);
    const { text, values } = aggregateCountsSql(normalized);
    return aggregationReportOfRows(normalized, await this.query<AggregationCountsRow>(text, values));
  }

  /** Waits for queued writes, then closes the pool; idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.evaluations.idle();
    this.closed = true;
    const opening = this.opening;
    this.opening = null;
    const pool = opening === null ? null : await opening.catch(() => null);
    await pool?.end();
  }
}
