import { ExecutionNotFound, ModelValidationError, StoreError, TraceUnavailable } from '../errors/M3Error';
import type { EvaluationResult } from '../evaluation/EvaluationResult';
import type { EvidenceRef, RawEvidence } from '../trace/EvidenceRef';
import { TraceResult, type TraceResultData } from '../trace/TraceResult';
import type { TraceView } from '../trace/TraceView';
import type { AggregationQuery, AggregationReport } from './AggregationQuery';
import type { ExecutionListFilter, ExecutionStore, FinishedExecution, StoredEvaluation } from './ExecutionStore';
import { selectPrunedRuns, type PruneOptions, type PruneReport, type PruneSelection } from './prune';
import { shardRecordToSave, type RunShardRecord } from './runShards';
import type { AttemptRecord, ExecutionRecord, RunRecord, SessionRecord, SuiteRecord, TurnRecord } from './records';
import { aggregateItems } from './aggregation/aggregateItems';
import type { AggregationItem } from './aggregation/AggregationItem';
import { evaluationItem, requirementItem } from './aggregation/buildAggregationItems';
import { isLaterRow, lineageKey, type EvaluationLineage } from './aggregation/lineage';
import { validateAggregationQuery } from './aggregation/validateAggregationQuery';
import { canonicalInstant, normalizeSuiteName, requireId, requireJudgeRequestLimit } from './storeInputs';
import { checkedEvidenceDigest, evidenceDigestOf, verifyRawEvidence } from './verifyRawEvidence';

/** Deep copy of JSON-shaped data, so callers never share mutable state with the store. */
function copy<T>(value: T): T {
  return structuredClone(value);
}

/**
 * The kit's default store: everything in process memory, gone when the process ends. It keeps
 * the same rules as the SQLite store (append-only evaluations, latest row per lineage, sticky
 * required, verified evidence) and aggregates with the shared pure engine.
 */
export class InMemoryExecutionStore implements ExecutionStore {
  private readonly runs = new Map<string, RunRecord>();
  private readonly suites = new Map<string, SuiteRecord>();
  private readonly attempts = new Map<string, AttemptRecord>();
  private readonly executions = new Map<string, ExecutionRecord>();
  private readonly traces = new Map<string, TraceResultData>();
  private readonly blobs = new Map<string, Buffer>();
  /** The evidence digests each finished execution saved, so pruning knows which blobs are shared. */
  private readonly executionBlobs = new Map<string, string[]>();
  private readonly sessions = new Map<string, SessionRecord[]>();
  private readonly turns = new Map<string, TurnRecord[]>();
  private readonly evaluationIds = new Set<string>();
  private readonly latest = new Map<string, StoredEvaluation>();
  /** Creation time of each row's execution, fixed when the row is written (as in SQLite). */
  private readonly executionTimes = new Map<string, string>();
  private readonly requiredLineages = new Set<string>();
  private nextSuiteId = 1;
  private readonly shards = new Map<string, Map<number, RunShardRecord>>();
  private closed = false;
  /** Judge requests counted per run (`reserveJudgeRequest`). */
  private readonly judgeRequests = new Map<string, number>();

  private assertOpen(): void {
    if (this.closed) throw new StoreError('the execution store is closed: create a new store to read or write');
  }

  async saveRun(run: RunRecord): Promise<void> {
    this.assertOpen();
    requireId(run.runId, 'runId');
    this.runs.set(run.runId, copy({ ...run, startedAt: canonicalInstant(run.startedAt, 'startedAt') }));
  }

  async getRun(runId: string): Promise<RunRecord | null> {
    this.assertOpen();
    const run = this.runs.get(runId);
    return run === undefined ? null : copy(run);
  }

  async listRuns(options: { limit?: number } = {}): Promise<RunRecord[]> {
    this.assertOpen();
    const runs = [...this.runs.values()].sort((a, b) =>
      a.startedAt === b.startedAt ? (a.runId < b.runId ? 1 : -1) : a.startedAt < b.startedAt ? 1 : -1,
    );
    return copy(options.limit === undefined ? runs : runs.slice(0, options.limit));
  }

  async registerSuite(name: string): Promise<SuiteRecord> {
    this.assertOpen();
    const trimmed = normalizeSuiteName(name);
    let suite = this.suites.get(trimmed);
    if (suite === undefined) {
      suite = { suiteId: this.nextSuiteId++, name: trimmed, createdAt: new Date().toISOString() };
      this.suites.set(trimmed, suite);
    }
    return { ...suite };
  }

  async listSuites(): Promise<SuiteRecord[]> {
    this.assertOpen();
    return [...this.suites.values()].sort((a, b) => a.suiteId - b.suiteId).map((s) => ({ ...s }));
  }

  async saveAttempt(attempt: AttemptRecord): Promise<void> {
    this.assertOpen();
    requireId(attempt.attemptId, 'attemptId');
    requireId(attempt.runId, 'runId');
    this.attempts.set(attempt.attemptId, copy(attempt));
  }

  async listAttempts(filter: { runId: string }): Promise<AttemptRecord[]> {
    this.assertOpen();
    return copy(
      [...this.attempts.values()]
        .filter((a) => a.runId === filter.runId)
        .sort((a, b) => (a.startedAt === b.startedAt ? cmp(a.attemptId, b.attemptId) : cmp(a.startedAt, b.startedAt))),
    );
  }

  async createExecution(record: ExecutionRecord): Promise<void> {
    this.assertOpen();
    requireId(record.executionId, 'executionId');
    if (this.executions.has(record.executionId)) {
      throw new StoreError(`execution already exists: ${record.executionId}`, { executionId: record.executionId });
    }
    this.executions.set(
      record.executionId,
      copy({ ...record, createdAt: canonicalInstant(record.createdAt, 'createdAt') }),
    );
  }

  async finishExecution(finished: FinishedExecution): Promise<void> {
    this.assertOpen();
    const record = this.executions.get(finished.executionId);
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
    for (const [sha256, bytes] of blobs) this.blobs.set(sha256, bytes);
    this.executionBlobs.set(
      finished.executionId,
      blobs.map(([sha256]) => sha256),
    );
    this.traces.set(finished.executionId, copy(data));
    this.sessions.set(finished.executionId, copy([...(finished.sessions ?? [])]));
    this.turns.set(finished.executionId, copy([...(finished.turns ?? [])]));
    this.executions.set(finished.executionId, {
      ...record,
      outcome: finished.outcome,
      finishedAt: canonicalInstant(finished.finishedAt, 'finishedAt'),
      snapshot: copy(finished.snapshot),
    });
  }

  async getExecution(executionId: string): Promise<ExecutionRecord> {
    this.assertOpen();
    const record = this.executions.get(executionId);
    if (record === undefined) throw new ExecutionNotFound(executionId);
    return copy(record);
  }

  async listExecutions(filter: ExecutionListFilter): Promise<ExecutionRecord[]> {
    this.assertOpen();
    const linked =
      filter.attemptId === undefined ? null : new Set(this.attempts.get(filter.attemptId)?.executionIds ?? []);
    const offset = filter.offset ?? 0;
    const matching = [...this.executions.values()]
      .filter((e) => filter.runId === undefined || e.runId === filter.runId)
      .filter((e) => linked === null || e.attemptId === filter.attemptId || linked.has(e.executionId))
      .sort((a, b) =>
        a.createdAt === b.createdAt ? cmp(a.executionId, b.executionId) : cmp(a.createdAt, b.createdAt),
      );
    return copy(matching.slice(offset, filter.limit === undefined ? undefined : offset + filter.limit));
  }

  async countExecutions(filter: { runId?: string; attemptId?: string }): Promise<number> {
    return (await this.listExecutions({ runId: filter.runId, attemptId: filter.attemptId })).length;
  }

  async getTrace(executionId: string): Promise<TraceResult> {
    this.assertOpen();
    if (!this.executions.has(executionId)) throw new ExecutionNotFound(executionId);
    const data = this.traces.get(executionId);
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
    if (!this.executions.has(executionId)) throw new ExecutionNotFound(executionId);
    return copy(this.sessions.get(executionId) ?? []);
  }

  async listTurns(executionId: string): Promise<TurnRecord[]> {
    this.assertOpen();
    if (!this.executions.has(executionId)) throw new ExecutionNotFound(executionId);
    return copy([...(this.turns.get(executionId) ?? [])].sort((a, b) => a.index - b.index));
  }

  async saveEvaluation(evaluation: StoredEvaluation): Promise<void> {
    this.assertOpen();
    const { result } = evaluation;
    requireId(result.evaluationId, 'evaluationId');
    requireId(result.evaluator, 'evaluator');
    if (this.evaluationIds.has(result.evaluationId)) {
      throw new StoreError(`evaluation already exists: ${result.evaluationId} (rows are append-only)`, {
        evaluationId: result.evaluationId,
      });
    }
    const stored = copy({
      ...evaluation,
      result: { ...result, createdAt: canonicalInstant(result.createdAt, 'createdAt') },
    });
    this.evaluationIds.add(result.evaluationId);
    const execution = result.executionId === null ? undefined : this.executions.get(result.executionId);
    this.executionTimes.set(result.evaluationId, execution?.createdAt ?? stored.result.createdAt);
    const key = lineageKey(result);
    if (result.required) this.requiredLineages.add(key);
    const previous = this.latest.get(key);
    if (previous === undefined || isLaterRow(stored.result, previous.result)) this.latest.set(key, stored);
  }

  async listEvaluations(filter: {
    runId?: string;
    executionId?: string;
    evaluator?: string;
  }): Promise<EvaluationResult[]> {
    this.assertOpen();
    return [...this.latest.values()]
      .filter((s) => filter.runId === undefined || s.labels.runId === filter.runId)
      .filter((s) => filter.executionId === undefined || s.result.executionId === filter.executionId)
      .filter((s) => filter.evaluator === undefined || s.result.evaluator === filter.evaluator)
      .map((s) => s.result)
      .sort((a, b) => (isLaterRow(a, b) ? 1 : -1))
      .map((r) => copy(r));
  }

  async isRequiredLineage(lineage: EvaluationLineage): Promise<boolean> {
    this.assertOpen();
    return this.requiredLineages.has(lineageKey(lineage));
  }

  async readRawEvidence(ref: EvidenceRef, options: { maxBytes?: number } = {}): Promise<RawEvidence> {
    this.assertOpen();
    const bytes = this.blobs.get(evidenceDigestOf(ref)) ?? null;
    return verifyRawEvidence(ref, bytes, options);
  }

  async aggregateEvaluations(query: AggregationQuery): Promise<AggregationReport> {
    this.assertOpen();
    const normalized = validateAggregationQuery(query);
    return aggregateItems(normalized, this.aggregationItems());
  }

  /** Latest lineage rows plus a synthetic item per required evaluator an execution has not produced. */
  private *aggregationItems(): Generator<AggregationItem> {
    const produced = new Set<string>();
    for (const stored of this.latest.values()) {
      produced.add(JSON.stringify([stored.result.executionId, stored.result.evaluator]));
      yield evaluationItem(stored, this.executionTimes.get(stored.result.evaluationId) ?? null);
    }
    const running = this.executionsOfRunningAttempts();
    for (const execution of this.executions.values()) {
      for (const evaluator of new Set(execution.requiredEvaluators)) {
        if (produced.has(JSON.stringify([execution.executionId, evaluator]))) continue;
        const pending = execution.outcome === null || running.has(execution.executionId);
        yield requirementItem(execution, evaluator, pending ? 'pending' : 'missing');
      }
    }
  }

  /** Executions linked (either way) to an attempt whose outcome is not known yet. */
  private executionsOfRunningAttempts(): Set<string> {
    const running = new Set<string>();
    for (const attempt of this.attempts.values()) {
      if (attempt.outcome === null) for (const id of attempt.executionIds) running.add(id);
    }
    for (const execution of this.executions.values()) {
      const attempt = execution.attemptId === null ? undefined : this.attempts.get(execution.attemptId);
      if (attempt !== undefined && attempt.outcome === null) running.add(execution.executionId);
    }
    return running;
  }

  // judge budget (reports lane) ------------------------------------------------------------

  async reserveJudgeRequest(runId: string, limit: number): Promise<boolean> {
    this.assertOpen();
    requireId(runId, 'runId');
    requireJudgeRequestLimit(limit);
    // Check and count happen in one synchronous step, so concurrent callers cannot overshoot.
    const used = this.judgeRequests.get(runId) ?? 0;
    if (used >= limit) return false;
    this.judgeRequests.set(runId, used + 1);
    return true;
  }

  async countJudgeRequests(runId: string): Promise<number> {
    this.assertOpen();
    requireId(runId, 'runId');
    return this.judgeRequests.get(runId) ?? 0;
  }

  // retention ----------------------------------------------------------------------------------

  async pruneRuns(selection: PruneSelection, options: PruneOptions = {}): Promise<PruneReport> {
    this.assertOpen();
    const { pruned, skipped } = selectPrunedRuns(await this.listRuns(), selection, options);
    const runIds = new Set(pruned.map((run) => run.runId));
    const attempts = [...this.attempts.values()].filter((a) => runIds.has(a.runId));
    const attemptIds = new Set(attempts.map((a) => a.attemptId));
    const executions = [...this.executions.values()].filter((e) =>
      e.runId === null ? e.attemptId !== null && attemptIds.has(e.attemptId) : runIds.has(e.runId),
    );
    const executionIds = new Set(executions.map((e) => e.executionId));
    const evaluations = [...this.latest.entries()].filter(
      ([, s]) =>
        (s.labels.runId !== null && runIds.has(s.labels.runId)) ||
        (s.result.executionId !== null && executionIds.has(s.result.executionId)),
    );
    const report: PruneReport = {
      dryRun: options.dryRun === true,
      runIds: pruned.map((run) => run.runId),
      executionCount: executions.length,
      evaluationCount: evaluations.length,
      ...(skipped.length > 0 && { skippedRunIds: skipped.map((run) => run.runId) }),
    };
    if (report.dryRun) return report;
    const suiteIds = new Set(attempts.map((a) => a.suiteId).filter((id): id is number => id !== null));
    const suiteNames = new Set(executions.map((e) => e.suiteName).filter((n): n is string => n !== null));
    const blobs = new Set(executions.flatMap((e) => this.executionBlobs.get(e.executionId) ?? []));
    for (const [key, stored] of evaluations) {
      this.latest.delete(key);
      this.requiredLineages.delete(key);
      this.evaluationIds.delete(stored.result.evaluationId);
      this.executionTimes.delete(stored.result.evaluationId);
    }
    for (const id of executionIds) {
      for (const map of [this.executions, this.traces, this.sessions, this.turns, this.executionBlobs]) map.delete(id);
    }
    for (const id of attemptIds) this.attempts.delete(id);
    for (const id of runIds) {
      this.runs.delete(id);
      this.judgeRequests.delete(id);
    }
    this.dropUnsharedBlobs(blobs);
    this.dropUnusedSuites(suiteIds, suiteNames);
    return report;
  }

  /** Removes the `candidates` no remaining execution saved. */
  private dropUnsharedBlobs(candidates: ReadonlySet<string>): void {
    const kept = new Set([...this.executionBlobs.values()].flat());
    for (const sha256 of candidates) if (!kept.has(sha256)) this.blobs.delete(sha256);
  }

  /** Removes suites the pruned rows used when no remaining attempt, execution or evaluation does. */
  private dropUnusedSuites(ids: ReadonlySet<number>, names: ReadonlySet<string>): void {
    const usedIds = new Set([...this.attempts.values()].map((a) => a.suiteId));
    const usedNames = new Set([
      ...[...this.executions.values()].map((e) => e.suiteName),
      ...[...this.latest.values()].map((s) => s.labels.suiteName),
    ]);
    for (const [name, suite] of this.suites) {
      const candidate = ids.has(suite.suiteId) || names.has(name);
      if (candidate && !usedIds.has(suite.suiteId) && !usedNames.has(name)) this.suites.delete(name);
    }
  }

  // shards (postgres lane) ------------------------------------------------------------------

  async recordRunShard(shard: RunShardRecord): Promise<RunShardRecord[]> {
    this.assertOpen();
    requireId(shard.runId, 'runId');
    const shards = this.shards.get(shard.runId) ?? new Map<number, RunShardRecord>();
    const record = shardRecordToSave(shard, [...shards.values()]);
    this.shards.set(shard.runId, shards.set(shard.index, structuredClone(record)));
    return this.listRunShards(shard.runId);
  }

  async listRunShards(runId: string): Promise<RunShardRecord[]> {
    this.assertOpen();
    const shards = [...(this.shards.get(runId)?.values() ?? [])];
    return shards.sort((a, b) => a.index - b.index).map((s) => structuredClone(s));
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
