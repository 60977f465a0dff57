import type { EvaluationLabels, EvaluationResult } from '../evaluation/EvaluationResult';
import type { ExecutionOutcome } from '../enums';
import type { EvidenceRef, RawEvidence, RawEvidenceBlob } from '../trace/EvidenceRef';
import type { TraceResult } from '../trace/TraceResult';
import type { TraceView } from '../trace/TraceView';
import type { AggregationQuery, AggregationReport } from './AggregationQuery';
import type { PruneOptions, PruneReport, PruneSelection } from './prune';
import type { RunShardRecord } from './runShards';
import type { AttemptRecord, ExecutionRecord, RunRecord, SessionRecord, SuiteRecord, TurnRecord } from './records';

/** A stored evaluation row with the labels it is aggregated by. */
export interface StoredEvaluation {
  readonly result: EvaluationResult;
  readonly labels: EvaluationLabels;
}

/** What an execution leaves when it finishes: written in one transaction. */
export interface FinishedExecution {
  readonly executionId: string;
  readonly outcome: ExecutionOutcome;
  readonly finishedAt: string;
  readonly snapshot: ExecutionRecord['snapshot'];
  readonly trace: TraceResult;
  readonly evidence: readonly RawEvidenceBlob[];
  readonly sessions?: readonly SessionRecord[];
  readonly turns?: readonly TurnRecord[];
}

/** Which executions `listExecutions` returns, ordered by creation (then id). */
export interface ExecutionListFilter {
  readonly runId?: string;
  readonly attemptId?: string;
  /** At most this many (viewer paging). */
  readonly limit?: number;
  /** Skip this many first (viewer paging). */
  readonly offset?: number;
}

/**
 * Where runs, suites, attempts, executions, traces and evaluations live.
 * Every method is async; implementations must be safe for concurrent use.
 */
export interface ExecutionStore {
  // runs
  saveRun(run: RunRecord): Promise<void>;
  getRun(runId: string): Promise<RunRecord | null>;
  /** Newest first. */
  listRuns(options?: { limit?: number }): Promise<RunRecord[]>;
  /**
   * The runs saved with status `running`, newest first, found without reading the whole history
   * (an index), for `closeAbandonedRuns`.
   */
  listRunningRuns(): Promise<RunRecord[]>;

  // suites
  /** Registers (or finds) a suite by trimmed name and returns it. */
  registerSuite(name: string): Promise<SuiteRecord>;
  listSuites(): Promise<SuiteRecord[]>;

  // attempts
  /** Inserts or replaces an attempt (by `attemptId`). */
  saveAttempt(attempt: AttemptRecord): Promise<void>;
  listAttempts(filter: { runId: string }): Promise<AttemptRecord[]>;

  // executions
  /** Records an execution when it is created (not finished). */
  createExecution(record: ExecutionRecord): Promise<void>;
  /** Writes the finished execution, its events, trace, evidence, sessions and turns atomically. */
  finishExecution(finished: FinishedExecution): Promise<void>;
  /** Throws `ExecutionNotFound`. */
  getExecution(executionId: string): Promise<ExecutionRecord>;
  listExecutions(filter: ExecutionListFilter): Promise<ExecutionRecord[]>;
  // viewer: paging (the viewer pages through a run's executions; no view loads a whole database)
  /** How many executions `listExecutions` would return for this filter without `limit`/`offset`. */
  countExecutions(filter: Pick<ExecutionListFilter, 'runId' | 'attemptId'>): Promise<number>;
  // end viewer
  /** Throws `ExecutionNotFound` or `TraceUnavailable`. */
  getTrace(executionId: string): Promise<TraceResult>;
  /** Throws `ExecutionNotFound`, `TraceUnavailable` or `TraceNotFinalized`. */
  getTraceView(executionId: string): Promise<TraceView>;
  listSessions(executionId: string): Promise<SessionRecord[]>;
  listTurns(executionId: string): Promise<TurnRecord[]>;

  // evaluations
  /** Appends an evaluation row; never overwrites. */
  saveEvaluation(evaluation: StoredEvaluation): Promise<void>;
  /** Latest row per lineage `(execution, turn, evaluator, subject digest)`, oldest first. */
  listEvaluations(filter: { runId?: string; executionId?: string; evaluator?: string }): Promise<EvaluationResult[]>;
  /** True when a row of this lineage was ever saved as required (sticky). */
  isRequiredLineage(
    lineage: Pick<EvaluationResult, 'executionId' | 'turnId' | 'evaluator' | 'subjectDigest'>,
  ): Promise<boolean>;

  // raw evidence
  /** Verifies size and sha256; throws `RawEvidenceUnavailable` / `RawEvidenceIntegrityError`. */
  readRawEvidence(ref: EvidenceRef, options?: { maxBytes?: number }): Promise<RawEvidence>;

  // judge budget (reports lane) ------------------------------------------------------------
  /**
   * Atomically counts one judge request for `runId` when fewer than `limit` were counted so far and
   * resolves true; resolves false, counting nothing, once the budget is spent (`limit` < 1 is spent
   * from the start). Safe across Jest workers and processes sharing the store (`--judge-max-requests`).
   */
  reserveJudgeRequest(runId: string, limit: number): Promise<boolean>;
  /**
   * Judge requests `reserveJudgeRequest` has counted for `runId` (0 when none), for the run
   * summary's budget line.
   */
  countJudgeRequests(runId: string): Promise<number>;

  // aggregation
  /** contract §10: throws `ModelValidationError` naming an unknown label or a missing evaluator rule. */
  aggregateEvaluations(query: AggregationQuery): Promise<AggregationReport>;

  // retention (contract §20) ------------------------------------------------------------------------
  /**
   * Deletes whole runs picked by `selection` and the rows only they reference: attempts,
   * executions with their traces, events, sessions, turns and evaluations, raw evidence no kept
   * execution shares, suites no kept run uses. Runs still `running` are kept unless
   * `includeRunning`; `dryRun` reports the same selection and changes nothing.
   */
  pruneRuns(selection: PruneSelection, options?: PruneOptions): Promise<PruneReport>;
  // end retention

  // shards (postgres lane) ------------------------------------------------------------------
  /**
   * Saves one shard's state and returns every shard of its run saved so far, atomically with
   * respect to other processes (of shards finishing at once, exactly one sees them all finished).
   * Optional: a store without it runs shards uncoordinated (see @sf-m3/store-postgres README).
   */
  recordRunShard?(shard: RunShardRecord): Promise<RunShardRecord[]>;
  /** The run's shards saved so far, by index (present whenever `recordRunShard` is). */
  listRunShards?(runId: string): Promise<RunShardRecord[]>;

  /** Flushes and releases resources; idempotent. */
  close(): Promise<void>;
}
