import type { ExecutionLifecycle, ExecutionOutcome } from '../enums';
import type { EvaluationResult } from '../evaluation/EvaluationResult';
import type { JsonObject } from '../json';
import type { ContentBlock } from '../trace/TraceEntry';
import type { TraceResult } from '../trace/TraceResult';
import type { TraceView } from '../trace/TraceView';

/** Safe facts about an error that ended an execution. */
export interface ErrorInfo {
  readonly code: string;
  readonly message: string;
  readonly details: JsonObject;
}

/** Where and how an execution stands. */
export interface ExecutionSnapshot {
  readonly lifecycle: ExecutionLifecycle;
  readonly outcome: ExecutionOutcome | null;
  readonly createdAt: string;
  readonly finishedAt: string | null;
  readonly runId: string | null;
  readonly suiteName: string | null;
  readonly caseId: string | null;
  /**
   * Facts about how the execution ran, saved as `metadata.<key>` labels: `cassette` is `replayed`,
   * `recorded` or `mixed` when its model traffic went through a cassette (contract §24).
   */
  readonly metadata?: Readonly<Record<string, string>>;
}

/**
 * What `callTool` returns; `isError: true` is a normal result, not an exception. `T` is the
 * caller's claim about `structuredContent` (`callTool<T>()`); it is checked only with `validateSchemas`.
 */
export interface ToolCallResult<T = unknown> {
  readonly content: ContentBlock[];
  readonly structuredContent?: T;
  readonly isError: boolean;
  readonly executionId: string;
  /** The tool that was called. */
  readonly tool: string;
  /** The server binding it was called on. */
  readonly server: string;
}

/** One turn of an agent session. */
export interface TurnResult {
  readonly turnId: string;
  readonly executionId: string;
  readonly index: number;
  readonly prompt: string;
  readonly outcome: ExecutionOutcome;
  readonly response: { readonly text: string; readonly content: ContentBlock[] } | null;
  readonly stopReason: string | null;
  readonly error?: ErrorInfo;
  /** Finalized view of the execution, when it has finished; use `forTurn` on it. */
  readonly traceView?: TraceView;
}

/** A finished execution with its trace and verdicts. */
export interface ExecutionResult {
  readonly executionId: string;
  readonly snapshot: ExecutionSnapshot;
  readonly turns: TurnResult[];
  readonly trace: TraceResult;
  readonly traceView: TraceView;
  /** The operation's result for one-shot direct specs (`CallTool` gives a `ToolCallResult`). */
  readonly directResult?: unknown;
  readonly evaluations: EvaluationResult[];
  readonly error?: ErrorInfo;
}
