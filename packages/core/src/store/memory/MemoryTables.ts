import type { TraceResultData } from '../../trace/TraceResult';
import type { StoredEvaluation } from '../ExecutionStore';
import type { RunShardRecord } from '../runShards';
import type { AttemptRecord, ExecutionRecord, RunRecord, SessionRecord, SuiteRecord, TurnRecord } from '../records';

/**
 * The maps `InMemoryExecutionStore` keeps its rows in, shared with the modules that list, append
 * and prune them. Rows go in and come out as deep copies (`copy`), so no caller ever holds one.
 */
export interface MemoryTables {
  readonly runs: Map<string, RunRecord>;
  /** By trimmed name. */
  readonly suites: Map<string, SuiteRecord>;
  readonly attempts: Map<string, AttemptRecord>;
  readonly executions: Map<string, ExecutionRecord>;
  /** By execution, once it finished. */
  readonly traces: Map<string, TraceResultData>;
  /** Raw evidence by sha256, shared by every execution that saved the same bytes. */
  readonly blobs: Map<string, Buffer>;
  /** The evidence digests each finished execution saved, so pruning knows which blobs are shared. */
  readonly executionBlobs: Map<string, string[]>;
  /** By execution. */
  readonly sessions: Map<string, SessionRecord[]>;
  /** By execution. */
  readonly turns: Map<string, TurnRecord[]>;
  /** Every evaluation id saved, so rows stay append-only. */
  readonly evaluationIds: Set<string>;
  /** The latest row of each lineage, by `lineageKey`. */
  readonly latest: Map<string, StoredEvaluation>;
  /** Creation time of each row's execution, fixed when the row is written (as in SQLite). */
  readonly executionTimes: Map<string, string>;
  /** Lineages (by `lineageKey`) a row was ever saved as required for. */
  readonly requiredLineages: Set<string>;
  /** By run, then shard index. */
  readonly shards: Map<string, Map<number, RunShardRecord>>;
  /** Judge requests counted per run (`reserveJudgeRequest`). */
  readonly judgeRequests: Map<string, number>;
}

/** Tables with nothing in them, for a new store. */
export function emptyMemoryTables(): MemoryTables {
  return {
    runs: new Map(),
    suites: new Map(),
    attempts: new Map(),
    executions: new Map(),
    traces: new Map(),
    blobs: new Map(),
    executionBlobs: new Map(),
    sessions: new Map(),
    turns: new Map(),
    evaluationIds: new Set(),
    latest: new Map(),
    executionTimes: new Map(),
    requiredLineages: new Set(),
    shards: new Map(),
    judgeRequests: new Map(),
  };
}

/** Deep copy of JSON-shaped data, so callers never share mutable state with the store. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}
