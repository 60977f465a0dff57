/** How an execution ended. */
export const ExecutionOutcome = Object.freeze({
  COMPLETED: 'completed',
  FAILED: 'failed',
  TIMED_OUT: 'timed_out',
  CANCELLED: 'cancelled',
  INTERRUPTED: 'interrupted',
} as const);
export type ExecutionOutcome = (typeof ExecutionOutcome)[keyof typeof ExecutionOutcome];

/** Where an execution is in its life. */
export const ExecutionLifecycle = Object.freeze({
  CREATED: 'created',
  STARTING: 'starting',
  IDLE: 'idle',
  RUNNING_TURN: 'running_turn',
  CLOSING: 'closing',
  FINISHED: 'finished',
} as const);
export type ExecutionLifecycle = (typeof ExecutionLifecycle)[keyof typeof ExecutionLifecycle];

/** The verdict of one evaluation. */
export const EvaluationStatus = Object.freeze({
  PASSED: 'passed',
  FAILED: 'failed',
  INCONCLUSIVE: 'inconclusive',
  ERROR: 'error',
  NOT_RUN: 'not_run',
} as const);
export type EvaluationStatus = (typeof EvaluationStatus)[keyof typeof EvaluationStatus];

/** The Jest outcome of one test. */
export const AttemptOutcome = Object.freeze({
  PASSED: 'passed',
  FAILED: 'failed',
  SKIPPED: 'skipped',
  TODO: 'todo',
} as const);
export type AttemptOutcome = (typeof AttemptOutcome)[keyof typeof AttemptOutcome];

/** How a tool call ended, as seen in the trace. */
export const ToolCallStatus = Object.freeze({
  SUCCESS: 'success',
  TOOL_ERROR: 'tool_error',
  PROTOCOL_ERROR: 'protocol_error',
  TRANSPORT_ERROR: 'transport_error',
  CANCELLED: 'cancelled',
  TIMED_OUT: 'timed_out',
  INCOMPLETE: 'incomplete',
} as const);
export type ToolCallStatus = (typeof ToolCallStatus)[keyof typeof ToolCallStatus];

/** The transport a server is reached over. */
export const TransportKind = Object.freeze({
  STDIO: 'stdio',
  HTTP: 'http',
  IN_PROCESS: 'in_process',
} as const);
export type TransportKind = (typeof TransportKind)[keyof typeof TransportKind];

/** Which trust an HTTP endpoint is given. */
export const TrustLevel = Object.freeze({
  DEFAULT: 'default',
  TRUSTED_PRIVATE: 'trusted_private',
} as const);
export type TrustLevel = (typeof TrustLevel)[keyof typeof TrustLevel];

/** The source a trace view was projected from. */
export const RuntimeKind = Object.freeze({
  DIRECT: 'direct',
  ACP: 'acp',
  OPENAI: 'openai',
  CLAUDE_CODE: 'claude_code',
  CODEX: 'codex',
  OPENCODE: 'opencode',
  PI: 'pi',
} as const);
export type RuntimeKind = (typeof RuntimeKind)[keyof typeof RuntimeKind];

/** Whether a trace saw everything that happened. */
export const TraceCompleteness = Object.freeze({ COMPLETE: 'complete', PARTIAL: 'partial' } as const);
export type TraceCompleteness = (typeof TraceCompleteness)[keyof typeof TraceCompleteness];

/** How tool calls in a trace went overall. */
export const ActivityHealth = Object.freeze({
  NO_CALLS: 'no_calls',
  ALL_SUCCEEDED: 'all_succeeded',
  ALL_FAILED: 'all_failed',
  MIXED: 'mixed',
} as const);
export type ActivityHealth = (typeof ActivityHealth)[keyof typeof ActivityHealth];
