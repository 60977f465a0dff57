import { ExecutionNotFound, ModelValidationError, StoreError, TraceUnavailable } from '../errors/M3Error';
import type { EvaluationResult } from '../evaluation/EvaluationResult';
import type { EvidenceRef, RawEvidence } from '../trace/EvidenceRef';
import { TraceResult } from '../trace/TraceResult';
import type { TraceView } from '../trace/TraceView';
import type { AggregationQuery, AggregationReport } from './AggregationQuery';
import type { ExecutionListFilter, ExecutionStore, FinishedExecution, StoredEvaluation } from './ExecutionStore';
import type { PruneOptions, PruneReport, PruneSelection } from './prune';
import { shardRecordToSave, type RunShardRecord } from './runShards';
import type { AttemptRecord, ExecutionRecord, RunRecord, SessionRecord, SuiteRecord, TurnRecord } from './records';
import { finishedExecutionLabels } from './finishedExecutionLabels';
import { aggregateItems } from './aggregation/aggregateItems';
import { lineageKey, type EvaluationLineage } from './aggregation/lineage';
import { validateAggregationQuery } from './aggregation/validateAggregationQuery';
import { aggregationItemsOf, appendEvaluation } from './memory/evaluationLineages';
import { attemptsOfRun, executionsMatching, latestEvaluationsMatching, runsNewestFirst } from './memory/listMemoryRows';
import { copy, emptyMemoryTables } from './memory/MemoryTables';
import { pruneMemoryRuns } from './memory/pruneMemoryRuns';
import { canonicalInstant, normalizeSuiteName, requireId, requireJudgeRequestLimit } from './storeInputs';
import { checkedEvidenceDigest, evidenceDigestOf, verifyRawEvidence } from './verifyRawEvidence';

/**
 * The kit's default store: everything in process memory, gone when the process ends. It keeps
 * the same rules as the SQLite store (append-only evaluations, latest row per lineage, sticky
 * required, verified evidence) and aggregates with the shared pure engine. Its rows live in
 * `MemoryTables`; listing, lineage bookkeeping and pruning are free functions under `memory/`.
 */
export class InMemoryExecutionStore implements ExecutionStore {
  private readonly tables = emptyMemoryTables();
  private nextSuiteId = 1;
  private closed = false;

  private assertOpen(): void {
    if (this.closed) throw new StoreError('the execution store is closed: create a new store to read or write');
  }

  async saveRun(run: RunRecord): Promise<void> {
    this.assertOpen();
    requireId(run.runId, 'runId');
    this.tables.runs.set(run.runId, copy({ ...run, startedAt: canonicalInstant(run.startedAt, 'startedAt') }));
  }

  async getRun(runId: string): Promise<RunRecord | null> {
    this.assertOpen();
    const run = this.tables.runs.get(runId);
    return run === undefined ? null : copy(run);
  }

  async listRuns(options: { limit?: number } = {}): Promise<RunRecord[]> {
    this.assertOpen();
    const runs = runsNewestFirst(this.tables);
    return copy(options.limit === undefined ? runs : runs.slice(0, options.limit));
  }

  async listRunningRuns(): Promise<RunRecord[]> {
    this.assertOpen();
    return copy(runsNewestFirst(this.tables).filter((run) => run.status === 'running'));
  }

  async registerSuite(name: string): Promise<SuiteRecord> {
    this.assertOpen();
    const trimmed = normalizeSuiteName(name);
    let suite = this.tables.suites.get(trimmed);
    if (suite === undefined) {
      suite = { suiteId: this.nextSuiteId++, name: trimmed, createdAt: new Date().toISOString() };
      this.tables.suites.set(trimmed, suite);
    }
    return { ...suite };
  }

  async listSuites(): Promise<SuiteRecord[]> {
    this.assertOpen();
    return [...this.tables.suites.values()].sort((a, b) => a.suiteId - b.suiteId).map((s) => ({ ...s }));
  }

  async saveAttempt(attempt: AttemptRecord): Promise<void> {
    this.assertOpen();
    requireId(attempt.attemptId, 'attemptId');
    requireId(attempt.runId, 'runId');
    this.tables.attempts.set(attempt.attemptId, copy(attempt));
  }

  async listAttempts(filter: { runId: string }): Promise<AttemptRecord[]> {
    this.assertOpen();
    return copy(attemptsOfRun(this.tables, filter.runId));
  }

  async createExecution(record: ExecutionRecord): Promise<void> {
    this.assertOpen();
    requireId(record.executionId, 'executionId');
    if (this.tables.executions.has(record.executionId)) {
      throw new StoreError(`execution already exists: ${record.executionId}`, { executionId: record.executionId });
    }
    this.tables.executions.set(
      record.executionId,
      copy({ ...record, createdAt: canonicalInstant(record.createdAt, 'createdAt') }),
    );
  }

  async finishExecution(finished: FinishedExecution): Promise<void> {
    this.assertOpen();
    const record = this.tables.executions.get(finished.executionId);
    if (record === undefined) throw new ExecutionNotFound(finished.executionId);
    const data = finished.trace.toJSON();
    if (data.executionId !== finished.executionId) {
      throw new ModelValidationError('finishExecution: the trace belongs to another execution', {
        executionId: finished.executionId,
      });
    }
    const blobs = finished.evidence.map(
      (blob) => [checkedEvidenceDigest(blob.reference, blob.bytes), Buffer.from(blob.bytes)] as const,
    );
    // Everything is validated before anything is written, so a bad input leaves no half execution.
    for (const [sha256, bytes] of blobs) this.tables.blobs.set(sha256, bytes);
    this.tables.executionBlobs.set(
      finished.executionId,
      blobs.map(([sha256]) => sha256),
    );
    this.tables.traces.set(finished.executionId, copy(data));
    this.tables.sessions.set(finished.executionId, copy([...(finished.sessions ?? [])]));
    this.tables.turns.set(finished.executionId, copy([...(finished.turns ?? [])]));
    this.tables.executions.set(finished.executionId, {
      ...record,
      labels: copy(finishedExecutionLabels(record.labels, finished.snapshot)),
      outcome: finished.outcome,
      finishedAt: canonicalInstant(finished.finishedAt, 'finishedAt'),
      snapshot: copy(finished.snapshot),
    });
  }

  async getExecution(executionId: string): Promise<ExecutionRecord> {
    this.assertOpen();
    const record = this.tables.executions.get(executionId);
    if (record === undefined) throw new ExecutionNotFound(executionId);
    return copy(record);
  }

  async listExecutions(filter: ExecutionListFilter): Promise<ExecutionRecord[]> {
    this.assertOpen();
    return copy(executionsMatching(this.tables, filter));
  }

  async countExecutions(filter: { runId?: string; attemptId?: string }): Promise<number> {
    return (await this.listExecutions({ runId: filter.runId, attemptId: filter.attemptId })).length;
  }

  async getTrace(executionId: string): Promise<TraceResult> {
    this.assertOpen();
    if (!this.tables.executions.has(executionId)) throw new ExecutionNotFound(executionId);
    const data = this.tables.traces.get(executionId);
    if (data === undefined) {
      throw new TraceUnavailable(`execution ${executionId} has no saved trace: it has not finished yet`, {
        executionId,
      });
    }
    return TraceResult.fromJSON(copy(data));
  }

  async getTraceView(executionId: string): Promise<TraceView> {
    return (await this.getTrace(executionId)).view();
  }

  async listSessions(executionId: string): Promise<SessionRecord[]> {
    this.assertOpen();
    if (!this.tables.executions.has(executionId)) throw new ExecutionNotFound(executionId);
    return copy(this.tables.sessions.get(executionId) ?? []);
  }

  async listTurns(executionId: string): Promise<TurnRecord[]> {
    this.assertOpen();
    if (!this.tables.executions.has(executionId)) throw new ExecutionNotFound(executionId);
    return copy([...(this.tables.turns.get(executionId) ?? [])].sort((a, b) => a.index - b.index));
  }

  async saveEvaluation(evaluation: StoredEvaluation): Promise<void> {
    this.assertOpen();
    appendEvaluation(this.tables, evaluation);
  }

  async listEvaluations(filter: {
    runId?: string;
    executionId?: string;
    evaluator?: string;
  }): Promise<EvaluationResult[]> {
    this.assertOpen();
    return latestEvaluationsMatching(this.tables, filter).map((r) => copy(r));
  }

  async isRequiredLineage(lineage: EvaluationLineage): Promise<boolean> {
    this.assertOpen();
    return this.tables.requiredLineages.has(lineageKey(lineage));
  }

  async readRawEvidence(ref: EvidenceRef, options: { maxBytes?: number } = {}): Promise<RawEvidence> {
    this.assertOpen();
    const bytes = this.tables.blobs.get(evidenceDigestOf(ref)) ?? null;
    return verifyRawEvidence(ref, bytes, options);
  }

  async aggregateEvaluations(query: AggregationQuery): Promise<AggregationReport> {
    this.assertOpen();
    const normalized = validateAggregationQuery(query);
    return aggregateItems(normalized, aggregationItemsOf(this.tables));
  }

  // judge budget (reports lane) ------------------------------------------------------------

  async reserveJudgeRequest(runId: string, limit: number): Promise<boolean> {
    this.assertOpen();
    requireId(runId, 'runId');
    requireJudgeRequestLimit(limit);
    // Check and count happen in one synchronous step, so concurrent callers cannot overshoot.
    const used = this.tables.judgeRequests.get(runId) ?? 0;
    if (used >= limit) return false;
    this.tables.judgeRequests.set(runId, used + 1);
    return true;
  }

  async countJudgeRequests(runId: string): Promise<number> {
    this.assertOpen();
    requireId(runId, 'runId');
    return this.tables.judgeRequests.get(runId) ?? 0;
  }

  // retention ----------------------------------------------------------------------------------

  async pruneRuns(selection: PruneSelection, options: PruneOptions = {}): Promise<PruneReport> {
    this.assertOpen();
    return pruneMemoryRuns(this.tables, await this.listRuns(), selection, options);
  }

  // shards (postgres lane) ------------------------------------------------------------------

  async recordRunShard(shard: RunShardRecord): Promise<RunShardRecord[]> {
    this.assertOpen();
    requireId(shard.runId, 'runId');
    const shards = this.tables.shards.get(shard.runId) ?? new Map<number, RunShardRecord>();
    const record = shardRecordToSave(shard, [...shards.values()]);
    this.tables.shards.set(shard.runId, shards.set(shard.index, structuredClone(record)));
    return this.listRunShards(shard.runId);
  }

  async listRunShards(runId: string): Promise<RunShardRecord[]> {
    this.assertOpen();
    const shards = [...(this.tables.shards.get(runId)?.values() ?? [])];
    return shards.sort((a, b) => a.index - b.index).map((s) => structuredClone(s));
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
