import { inflateRawSync } from 'node:zlib';
import {
  aggregationReportOfRows,
  canonicalInstant,
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
  type ExecutionStore,
  type FinishedExecution,
  type PruneOptions,
  type PruneReport,
  type PruneSelection,
  type RawEvidence,
  type RunRecord,
  type RunShardRecord,
  type SessionRecord,
  type StoredEvaluation,
  type SuiteRecord,
  type TraceEvent,
  type TraceView,
  type TurnRecord,
} from '@sf-m3/core';
import type { Pool, PoolClient } from 'pg';
import { aggregateCountsSql } from './aggregation/aggregateSql';
import { describeDatabase, type PostgresLocation } from './connection/describeDatabase';
import { openPool } from './connection/openPool';
import { transaction } from './connection/transaction';
import { evaluationRow } from './evaluations/evaluationRow';
import { prepareFinishedExecution, writeFinishedExecution } from './executions/writeFinishedExecution';
import { EvaluationWriter } from './evaluations/EvaluationWriter';
import { lineageId } from './evaluations/lineageId';
import { countJudgeRequests, reserveJudgeRequest } from './judge/reserveJudgeRequest';
import { pruneRuns } from './retention/pruneRuns';
import { recordShard } from './shards/recordShard';

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

const json = (value: unknown): string => JSON.stringify(value);

/** Executions of run `$1` and/or attempt `$2` (its own attempt id or the attempt's linked list). */
const EXECUTION_FILTER = `($1::text IS NULL OR x.run_id = $1)
  AND ($2::text IS NULL OR x.attempt_id = $2
       OR EXISTS (SELECT 1 FROM attempt_executions ae WHERE ae.attempt_id = $2 AND ae.execution_id = x.execution_id))`;

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
    await this.write((db) =>
      db.query(
        `INSERT INTO runs (run_id, started_at, record_json) VALUES ($1, $2, $3)
         ON CONFLICT (run_id) DO UPDATE SET started_at = excluded.started_at, record_json = excluded.record_json`,
        [record.runId, record.startedAt, json(record)],
      ),
    );
  }

  async getRun(runId: string): Promise<RunRecord | null> {
    const rows = await this.query<{ record_json: string }>('SELECT record_json FROM runs WHERE run_id = $1', [runId]);
    return rows.length === 0 ? null : (JSON.parse(rows[0]!.record_json) as RunRecord);
  }

  async listRuns(options: { limit?: number } = {}): Promise<RunRecord[]> {
    const rows = await this.query<{ record_json: string }>(
      'SELECT record_json FROM runs ORDER BY started_at DESC, run_id DESC LIMIT $1',
      [options.limit ?? null],
    );
    return rows.map((r) => JSON.parse(r.record_json) as RunRecord);
  }

  // shards -------------------------------------------------------------------------------------

  async recordRunShard(shard: RunShardRecord): Promise<RunShardRecord[]> {
    requireId(shard.runId, 'runId');
    return this.write((db) => recordShard(db, shard));
  }

  async listRunShards(runId: string): Promise<RunShardRecord[]> {
    const rows = await this.query<{ record_json: string }>(
      'SELECT record_json FROM run_shards WHERE run_id = $1 ORDER BY shard_index',
      [runId],
    );
    return rows.map((row) => JSON.parse(row.record_json) as RunShardRecord);
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
    return this.write(async (db) => {
      await db.query('INSERT INTO suites (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
        trimmed,
        new Date().toISOString(),
      ]);
      const { rows } = await db.query<{ suite_id: number; name: string; created_at: string }>(
        'SELECT suite_id, name, created_at FROM suites WHERE name = $1',
        [trimmed],
      );
      return { suiteId: rows[0]!.suite_id, name: rows[0]!.name, createdAt: rows[0]!.created_at };
    });
  }

  async listSuites(): Promise<SuiteRecord[]> {
    const rows = await this.query<{ suite_id: number; name: string; created_at: string }>(
      'SELECT suite_id, name, created_at FROM suites ORDER BY suite_id',
    );
    return rows.map((r) => ({ suiteId: r.suite_id, name: r.name, createdAt: r.created_at }));
  }

  // attempts -----------------------------------------------------------------------------------

  async saveAttempt(attempt: AttemptRecord): Promise<void> {
    requireId(attempt.attemptId, 'attemptId');
    requireId(attempt.runId, 'runId');
    await this.write(async (db) => {
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
    });
  }

  async listAttempts(filter: { runId: string }): Promise<AttemptRecord[]> {
    const rows = await this.query<{ record_json: string }>(
      'SELECT record_json FROM attempts WHERE run_id = $1 ORDER BY started_at, attempt_id',
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
      const inserted = await db.query(
        `INSERT INTO executions (execution_id, run_id, suite_name, case_id, attempt_id, created_at, finished_at, outcome,
           label_run_id, label_suite_name, label_case_id, server, transport, harness, model, trial, matrix_id,
           metadata, record_json)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
         ON CONFLICT (execution_id) DO NOTHING`,
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
      if (inserted.rowCount === 0) {
        throw new StoreError(`execution already exists: ${stored.executionId}`, { executionId: stored.executionId });
      }
      await db.query('INSERT INTO execution_required (execution_id, evaluator) SELECT $1, unnest($2::text[])', [
        stored.executionId,
        [...new Set(stored.requiredEvaluators)],
      ]);
    });
  }

  async finishExecution(finished: FinishedExecution): Promise<void> {
    const prepared = prepareFinishedExecution(finished);
    // One transaction: a crash leaves either the whole finished execution or the unfinished one.
    await this.write((db) => writeFinishedExecution(db, prepared));
  }

  async getExecution(executionId: string): Promise<ExecutionRecord> {
    const rows = await this.query<{ record_json: string }>(
      'SELECT record_json FROM executions WHERE execution_id = $1',
      [executionId],
    );
    if (rows.length === 0) throw new ExecutionNotFound(executionId);
    return JSON.parse(rows[0]!.record_json) as ExecutionRecord;
  }

  /** Ordered by creation; `limit`/`offset` page through them (viewer lane's paging). */
  async listExecutions(filter: {
    runId?: string;
    attemptId?: string;
    limit?: number;
    offset?: number;
  }): Promise<ExecutionRecord[]> {
    const rows = await this.query<{ record_json: string }>(
      `SELECT record_json FROM executions x WHERE ${EXECUTION_FILTER}
        ORDER BY x.created_at, x.execution_id LIMIT $3 OFFSET $4`,
      [filter.runId ?? null, filter.attemptId ?? null, filter.limit ?? null, filter.offset ?? 0],
    );
    return rows.map((r) => JSON.parse(r.record_json) as ExecutionRecord);
  }

  /** How many executions `listExecutions` would list without paging. */
  async countExecutions(filter: { runId?: string; attemptId?: string }): Promise<number> {
    const rows = await this.query<{ n: string }>(`SELECT COUNT(*) AS n FROM executions x WHERE ${EXECUTION_FILTER}`, [
      filter.runId ?? null,
      filter.attemptId ?? null,
    ]);
    return Number(rows[0]!.n);
  }

  async getTrace(executionId: string): Promise<TraceResult> {
    const rows = await this.query<{
      trace_id: string | null;
      completeness: string;
      limitations_json: string;
      event_count: number;
      events: Buffer | null;
    }>(
      `SELECT t.trace_id, t.completeness, t.limitations_json, t.event_count, t.events
         FROM executions x LEFT JOIN traces t ON t.execution_id = x.execution_id WHERE x.execution_id = $1`,
      [executionId],
    );
    const header = rows[0];
    if (header === undefined) throw new ExecutionNotFound(executionId);
    if (header.trace_id === null || header.events === null) {
      throw new TraceUnavailable(`execution ${executionId} has no saved trace: it has not finished yet`, {
        executionId,
      });
    }
    try {
      const events = JSON.parse(inflateRawSync(header.events).toString('utf8')) as TraceEvent[];
      if (events.length !== header.event_count) {
        throw new Error(`${events.length} of ${header.event_count} events`);
      }
      return TraceResult.fromJSON({
        traceId: header.trace_id,
        executionId,
        completeness: header.completeness as TraceResult['completeness'],
        limitations: JSON.parse(header.limitations_json) as string[],
        events,
      });
    } catch (error) {
      throw new TraceUnavailable(`the saved trace of ${executionId} is unreadable: ${(error as Error).message}`, {
        executionId,
      });
    }
  }

  async getTraceView(executionId: string): Promise<TraceView> {
    return (await this.getTrace(executionId)).view();
  }

  async listSessions(executionId: string): Promise<SessionRecord[]> {
    await this.getExecution(executionId);
    const rows = await this.query<{ record_json: string }>(
      'SELECT record_json FROM sessions WHERE execution_id = $1 ORDER BY created_at, session_id',
      [executionId],
    );
    return rows.map((r) => JSON.parse(r.record_json) as SessionRecord);
  }

  async listTurns(executionId: string): Promise<TurnRecord[]> {
    await this.getExecution(executionId);
    const rows = await this.query<{ record_json: string }>(
      'SELECT record_json FROM turns WHERE execution_id = $1 ORDER BY turn_index, turn_id',
      [executionId],
    );
    return rows.map((r) => JSON.parse(r.record_json) as TurnRecord);
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
    const rows = await this.query<{ result_json: string }>(
      `SELECT result_json FROM evaluations
        WHERE is_latest AND ($1::text IS NULL OR run_id = $1) AND ($2::text IS NULL OR execution_id = $2)
          AND ($3::text IS NULL OR evaluator = $3)
        ORDER BY created_at, evaluation_id`,
      [filter.runId ?? null, filter.executionId ?? null, filter.evaluator ?? null],
    );
    return rows.map((r) => JSON.parse(r.result_json) as EvaluationResult);
  }

  async isRequiredLineage(lineage: EvaluationLineage): Promise<boolean> {
    const rows = await this.query<{ required: boolean }>(
      'SELECT required FROM evaluation_lineages WHERE lineage_id = $1',
      [lineageId(lineage)],
    );
    return rows[0]?.required === true;
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
