import type { M3Error } from '../errors';
import type { M3Logger } from '../logging/logger';
import type { Redactor } from '../redaction/Redactor';
import type { TraceRecorder } from '../trace/TraceRecorder';
import type { ExecutionCassette } from './cassette/ExecutionCassette';
import type { ResolvedRunOptions } from './agentOptions';
import type { NativeHarnessKind } from './native/nativeSelection';

/** Where an execution is, for the deadline diagnostic (`stage`, `operation`). */
export interface TurnStage {
  stage: string;
  operation: string;
}

/** What `AgentSession` gives a driver: the execution's recorder, options, deadline and scope. */
export interface HarnessContext {
  readonly executionId: string;
  /** The kit's id of this agent session (events are tagged with it). */
  readonly sessionId: string;
  readonly recorder: TraceRecorder;
  readonly redactor: Redactor;
  readonly logger: M3Logger;
  readonly options: ResolvedRunOptions;
  /** Aborted when the execution finishes (deadline, cancel, close). */
  readonly signal: AbortSignal;
  /** Milliseconds left before the execution deadline. */
  readonly remainingMs: () => number;
  /** Tells the session where the driver is, for the deadline diagnostic. */
  readonly setStage: (stage: TurnStage) => void;
  /** The current session and turn, for events recorded outside a turn call. */
  readonly scope: () => { sessionId: string; turnId?: string };
  /**
   * The execution's cassette channel (contract §24), or null when the kit has no cassettes: the
   * driver opens it once its volatile paths exist and points its model client at it.
   */
  readonly cassette: ExecutionCassette | null;
}

/** One turn a driver runs. */
export interface HarnessTurn {
  readonly turnId: string;
  /** 1-based. */
  readonly index: number;
  readonly prompt: string;
}

/**
 * How a turn ended. When `ctx.signal` aborts mid-turn (deadline, cancel) a driver returns what the
 * turn produced so far (the session then ends the turn `timed_out` / `cancelled`), or throws the
 * abort when it has nothing to keep.
 */
export interface HarnessTurnEnd {
  /** The turn's answer; for a turn that broke off, the text streamed so far (partial). */
  readonly text: string | null;
  readonly stopReason: string | null;
  /** Set when the turn failed. */
  readonly error?: M3Error;
  /** True when the failure ends the whole execution (e.g. the agent process exited). */
  readonly terminal?: boolean;
  /** An outcome other than `completed`/`failed` the agent reported (e.g. its own `cancelled`). */
  readonly outcome?: 'cancelled';
}

/**
 * The harness-specific half of an agent execution. `AgentSession` owns the lifecycle (record,
 * deadline, cancel, turns, store writes); a driver talks to the agent: `open` once, `runTurn` per
 * prompt, `cancelTurn` when a turn in flight is cancelled, `close` once at the end (always called,
 * even after a failed or unfinished `open`; must not throw).
 */
export interface HarnessDriver {
  /** `runtime` of the trace (`execution.created`). */
  readonly runtime: 'openai' | 'acp' | NativeHarnessKind;
  /** Starts the agent side and records `session.created`. */
  open(ctx: HarnessContext): Promise<void>;
  runTurn(ctx: HarnessContext, turn: HarnessTurn): Promise<HarnessTurnEnd>;
  /** Asks the agent to stop the turn in flight (best effort, bounded, never throws). */
  cancelTurn?(ctx: HarnessContext): Promise<void>;
  /** Releases everything the driver started; idempotent, never throws. */
  close(ctx: HarnessContext): Promise<void>;
}
