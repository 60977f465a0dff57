/**
 * The payload each event kind carries: the contract between recorders (direct client, harnesses,
 * capture proxy) and the projector that builds `TraceView`s. Every payload is redacted and bounded.
 */
import type { ExecutionLifecycle, ExecutionOutcome, RuntimeKind, TraceCompleteness, TransportKind } from '../enums';
import type { JsonObject, JsonValue } from '../json';
import type { StderrCapture, UsageValue } from './TraceEntry';

/** `execution.created` (sequence 0). */
export interface ExecutionCreatedPayload {
  traceId: string;
  runtime: RuntimeKind;
  runId: string | null;
  suiteName: string | null;
  caseId: string | null;
  /** `{ name, transport, target }` of each bound server. */
  servers: JsonObject[];
}

/** `execution.state_changed`. */
export interface ExecutionStateChangedPayload {
  lifecycle: ExecutionLifecycle;
}

/** `execution.finished` (always last). */
export interface ExecutionFinishedPayload {
  outcome: ExecutionOutcome;
  completeness: TraceCompleteness;
  limitations: string[];
  error?: { code: string; message: string; details: JsonObject };
  directResult?: JsonValue;
}

/** `transport.connected` / `transport.disconnected` (event.server names the binding). */
export interface TransportPayload {
  transport: TransportKind;
  /** How we observed it, e.g. `sdk-transport-wrapper`. */
  instrumented: string;
  reason?: string;
}

/** `process.started`. `executable` is the basename only, never the command line. */
export interface ProcessStartedPayload {
  executable: string;
  pid: number | null;
}

/** `process.exited`. */
export interface ProcessExitedPayload {
  executable: string;
  pid: number | null;
  exitCode: number | null;
  signal: string | null;
  stderr: StderrCapture | null;
}

/**
 * `mcp.request`, `tool.call_requested`, `sampling.request`, `elicitation.request`: a JSON-RPC
 * request. `event.jsonrpcId` holds its id and `event.direction` who sent it.
 * For `tool.call_requested` from an agent's own report (origin `harness_reported`) the payload also
 * carries `providerCallId`, and `params` is `{ name, arguments }`.
 */
export interface RequestPayload {
  method: string;
  params: JsonValue;
  providerCallId?: string;
}

/**
 * `mcp.response`, `tool.result_received`, `sampling.response`, `elicitation.response`:
 * the result paired to the request with the same `jsonrpcId` on the same connection.
 * For harness-reported results: `providerCallId` and `status` (agent's words).
 */
export interface ResponsePayload {
  method: string;
  result: JsonValue;
  providerCallId?: string;
  status?: string;
}

/** `mcp.error`: a JSON-RPC error response. */
export interface ErrorResponsePayload {
  method: string;
  error: { code: number | null; message: string; data: JsonValue };
}

/** `mcp.initialized`: after a successful `initialize` response. */
export interface InitializedPayload {
  protocolVersion: string;
  /** `legacy` or `modern` (contract §23); absent in traces recorded before the kit knew eras. */
  era?: 'legacy' | 'modern';
  /**
   * How the era was chosen: `probe` (`auto`: `server/discover` answered or not), `cached` (`auto`,
   * an earlier connect of the run found legacy), `pinned` (a revision) or `legacy` (handshake only).
   */
  negotiation?: { mode: 'probe' | 'cached' | 'pinned' | 'legacy'; detail?: string };
  serverInfo: JsonObject;
  capabilities: JsonObject;
  instructions: string | null;
}

/** `mcp.notification`, `mcp.progress`, `mcp.cancellation_requested`, `mcp.cancellation_completed`. */
export interface NotificationPayload {
  method: string;
  params: JsonValue;
}

/**
 * `diagnostic`. Codes the projector understands when `event.jsonrpcId` is set:
 * `operation_timeout` (the call becomes `timed_out`), `operation_cancelled` (`cancelled`),
 * `transport_closed` (`transport_error`). `deadline_exceeded` names the execution deadline.
 */
export interface DiagnosticPayload {
  code: string;
  message: string;
  stage?: string;
  operation?: string;
  elapsedMs?: number;
  timeoutMs?: number;
}

/** `session.created`. */
export interface SessionCreatedPayload {
  sessionId: string;
  protocolVersion?: string | null;
  agent?: JsonObject | null;
  model?: string | null;
}

/** `turn.created`. */
export interface TurnCreatedPayload {
  turnId: string;
  index: number;
  prompt: string;
}

/** `turn.state_changed` when a turn ends. */
export interface TurnFinishedPayload {
  turnId: string;
  outcome: ExecutionOutcome;
  stopReason: string | null;
}

/** `agent.message` / `assistant.content`. */
export interface MessagePayload {
  role: 'user' | 'assistant' | 'system' | 'tool';
  content: JsonObject[];
  messageId?: string | null;
  stopReason?: string | null;
}

/** `reasoning`. */
export interface ReasoningPayload {
  visibility: 'visible' | 'unavailable' | 'encrypted' | 'provider_hidden';
  content?: JsonObject[];
}

/** `usage`. */
export type UsagePayload = UsageValue;

/** `evaluation.recorded`. */
export interface EvaluationRecordedPayload {
  evaluationId: string;
  evaluator: string;
  status: string;
}

/**
 * `raw.frame`: one raw frame (or stderr chunk) kept as redacted, bounded evidence. The bytes live
 * in the evidence store (`event.rawEvidence`); the payload holds a preview of at most 64 KiB.
 */
export interface RawFramePayload {
  source: 'mcp' | 'acp' | 'harness' | 'provider_http' | 'process_stderr';
  mediaType: string;
  /** Redacted text preview (UTF-8), cut at 64 KiB. */
  preview: string;
  /** True when `preview` is shorter than the redacted frame. */
  previewTruncated: boolean;
  /** Size of the redacted frame before bounding. */
  sizeBytes: number;
}
