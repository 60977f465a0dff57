import type { AttemptOutcome, ExecutionOutcome } from '../enums';
import type { EvaluationLabels } from '../evaluation/EvaluationResult';
import type { JsonObject, JsonValue } from '../json';
import type { RunProcess } from './runProcess';

/** Status of a whole run. */
export type RunStatus = 'running' | 'passed' | 'failed' | 'interrupted';

/** Attempt counts of a run, by Jest outcome. */
export interface AttemptCounts {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly todo: number;
}

/** One `m3 test`/`jest` invocation. Id `run-<32 hex>`. */
export interface RunRecord {
  readonly runId: string;
  readonly label: string | null;
  readonly startedAt: string;
  readonly finishedAt: string | null;
  readonly status: RunStatus;
  /** Redacted argv. */
  readonly argv: string[];
  readonly counts: AttemptCounts;
  /**
   * Why the run failed or stopped beyond its tests' own outcomes (a file that could not run or
   * did not finish, Jest's exit, a signal), redacted; absent when there was nothing to say.
   */
  readonly problems?: readonly RunProblem[];
  /**
   * The processes that own the run while it is `running` (the Jest that saved it, and `m3 test`
   * around it), so a later run, `m3 runs` or `m3 report` can close a run whose processes are all
   * gone (`closeAbandonedRuns`); absent on runs saved before sf-m3 recorded them.
   */
  readonly processes?: readonly RunProcess[];
}

/** One reason a run failed or stopped that no attempt carries. */
export interface RunProblem {
  /** `gate`: a `--min-pass-rate` / `--fail-on-regression` gate of `m3 test` failed. */
  readonly kind: 'file_error' | 'file_unfinished' | 'persistence_error' | 'jest_exit' | 'interrupted' | 'gate';
  /** The test file, relative to the project root, when the problem belongs to one. */
  readonly testPath: string | null;
  readonly message: string;
}

/** A named suite; `suiteId` is local to one database. */
export interface SuiteRecord {
  readonly suiteId: number;
  readonly name: string;
  readonly createdAt: string;
}

/** The Jest outcome of one test. */
export interface AttemptRecord {
  readonly attemptId: string;
  readonly runId: string;
  readonly testPath: string;
  readonly fullName: string;
  readonly caseId: string | null;
  readonly suiteId: number | null;
  /** `null` while the test runs. */
  readonly outcome: AttemptOutcome | null;
  readonly durationMs: number | null;
  /** Redacted and bounded. */
  readonly failureMessage: string | null;
  /** 0 for the first try, 1.. for `jest.retryTimes` retries. */
  readonly retryIndex: number;
  readonly executionIds: string[];
  readonly startedAt: string;
  readonly finishedAt: string | null;
}

/** A server an execution was bound to (never secret values). */
export interface ServerBindingRecord {
  readonly name: string;
  readonly transport: string;
  /** Redacted description: command basename, or URL origin+path. */
  readonly target: string;
}

/** One concrete trial: a direct connection, a matrix cell, an agent run or session. */
export interface ExecutionRecord {
  readonly executionId: string;
  readonly runId: string | null;
  readonly suiteName: string | null;
  readonly caseId: string | null;
  readonly attemptId: string | null;
  readonly kind: 'direct' | 'agent';
  /** Redacted spec description. */
  readonly spec: JsonObject;
  readonly servers: ServerBindingRecord[];
  /** Labels every evaluation of this execution inherits (harness, model, trial, matrix...). */
  readonly labels: Omit<EvaluationLabels, 'judgeModel' | 'rubricId' | 'tool'>;
  /** Evaluators every execution of its spec must produce. */
  readonly requiredEvaluators: string[];
  readonly createdAt: string;
  readonly finishedAt: string | null;
  readonly outcome: ExecutionOutcome | null;
  readonly snapshot: JsonObject;
}

/** An agent session inside an execution. */
export interface SessionRecord {
  readonly sessionId: string;
  readonly executionId: string;
  readonly createdAt: string;
  readonly closedAt: string | null;
  readonly data: JsonObject;
}

/** One turn of a session. */
export interface TurnRecord {
  readonly turnId: string;
  readonly executionId: string;
  readonly sessionId: string | null;
  readonly index: number;
  readonly outcome: ExecutionOutcome | null;
  readonly data: JsonValue;
}
