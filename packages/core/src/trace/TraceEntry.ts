import type { ActivityHealth, ExecutionOutcome, ToolCallStatus, TraceCompleteness, TransportKind } from '../enums';
import type { JsonObject, JsonValue } from '../json';
import type { ContentBlock } from './ContentBlock';
import type { EventDirection } from './Event';
import type { EvidenceRef } from './EvidenceRef';
import type { Observation } from './Observation';

/** Status of a timeline entry. */
export type EntryStatus =
  | 'completed'
  | 'success'
  | 'failed'
  | 'tool_error'
  | 'protocol_error'
  | 'transport_error'
  | 'timed_out'
  | 'cancelled'
  | 'interrupted'
  | 'incomplete'
  | 'unavailable';

/** Every entry kind a timeline can hold. */
export type EntryKind =
  | 'lifecycle'
  | 'message'
  | 'reasoning'
  | 'tool_call'
  | 'protocol'
  | 'transport'
  | 'initialization'
  | 'usage'
  | 'interaction'
  | 'process'
  | 'diagnostic'
  | 'raw_message'
  | 'evaluation';

/** Fields every timeline entry has. */
export interface EntryBase {
  /** `entry:<sha256 of the event ids it was projected from>`, deterministic. */
  readonly entryId: string;
  readonly kind: EntryKind;
  readonly executionId: string;
  readonly sessionId?: string;
  readonly turnId?: string;
  readonly server?: string;
  /** The connection (one client transport) the entry's events travelled on. */
  readonly connectionId?: string;
  readonly sequenceStart: number;
  readonly sequenceEnd: number;
  /** Offsets in ms from the trace's start. */
  readonly startMs: number;
  readonly endMs: number;
  readonly status: EntryStatus;
}

export type { ContentBlock } from './ContentBlock';

/** A tool result as seen on the wire. */
export interface ToolResultValue {
  readonly content: ContentBlock[];
  readonly structuredContent: Observation<JsonValue>;
  readonly isError: boolean;
}

/** A tool call as observed on the MCP wire. */
export interface WireToolCall {
  readonly jsonrpcId: string | number | null;
  readonly server: string;
  readonly tool: string;
  readonly arguments: JsonValue;
  readonly result: Observation<ToolResultValue>;
  readonly latencyMs: number | null;
}

/** A tool call as the agent reported it. */
export interface ReportedToolCall {
  readonly providerCallId: string | null;
  readonly server: string | null;
  readonly tool: string;
  /** The latest input the agent reported for the call; `not_emitted` when it reported none. */
  readonly arguments: Observation<JsonValue>;
  readonly result: Observation<JsonValue>;
  readonly status: Observation<string>;
}

/** A JSON-RPC error as a response carried it. */
export interface ProtocolErrorValue {
  readonly code: number | null;
  readonly message: string;
  readonly data: JsonValue;
}

/** How wire and reported evidence of one tool call were matched. */
export type CorrelationState = 'correlated' | 'wire_only' | 'reported_only' | 'ambiguous' | 'unavailable';

/** Where wire and reported evidence disagree. */
export interface EvidenceConflict {
  /** `turn`: a call paired by its `_meta` id (or its arguments) across turns. */
  readonly field: 'server' | 'tool' | 'arguments' | 'result' | 'status' | 'turn';
  readonly reported: JsonValue;
  readonly wire: JsonValue;
}

/** One tool call, correlated from wire and reported evidence. */
export interface ToolCallEntry extends EntryBase {
  readonly kind: 'tool_call';
  readonly callId: string;
  readonly server: string;
  /** How the call ended (contract §5 `status`); the same value as `toolStatus`. */
  readonly status: ToolCallStatus;
  readonly tool: Observation<string>;
  readonly arguments: Observation<JsonValue>;
  readonly result: Observation<ToolResultValue>;
  /** The JSON-RPC error that answered the call (`protocol_error`), else not emitted. */
  readonly error: Observation<ProtocolErrorValue>;
  /** JSON-RPC id of the wire request, null when only reported evidence exists. */
  readonly jsonrpcId: string | number | null;
  /** The agent's own id for the call, null when the source gives none. */
  readonly providerCallId: string | null;
  readonly correlation: CorrelationState;
  readonly toolStatus: ToolCallStatus;
  readonly latencyMs: number | null;
  readonly wire: Observation<WireToolCall>;
  readonly reported: Observation<ReportedToolCall>;
  readonly conflicts: EvidenceConflict[];
  /**
   * The capture layer's verdict under the test's tool policy (agent runs, where a proxy sits
   * between the agent and the server); absent when nothing judged the call. A denied call never
   * reached the server: the proxy answered it (`error`, code -32001).
   */
  readonly policy?: ToolPolicyVerdict;
  /**
   * 2026-07-28 multi-round-trip calls (contract §23): how many `input_required` rounds the server
   * asked for before this answer (each is an `interaction` entry with its `round`); absent when the
   * call took none.
   */
  readonly inputRounds?: number;
}

/** How the capture proxy judged one wire `tools/call` under the test's tool policy. */
export interface ToolPolicyVerdict {
  readonly decision: 'allowed' | 'denied';
  readonly reason: string;
}

/** A lifecycle change of the execution, a session or a turn. */
export interface LifecycleEntry extends EntryBase {
  readonly kind: 'lifecycle';
  readonly phase: string;
  readonly event: string;
  readonly data: JsonObject;
}

/** A message from the user, assistant or system. */
export interface MessageEntry extends EntryBase {
  readonly kind: 'message';
  readonly role: 'user' | 'assistant' | 'system' | 'tool';
  readonly content: ContentBlock[];
  readonly text: string;
  readonly stopReason: Observation<string>;
}

/** A reasoning block, possibly hidden or encrypted. */
export interface ReasoningEntry extends EntryBase {
  readonly kind: 'reasoning';
  readonly content: Observation<ContentBlock[]>;
}

/** A non-tool request/response pair or a notification. */
export interface ProtocolEntry extends EntryBase {
  readonly kind: 'protocol';
  readonly protocol: 'mcp' | 'acp' | 'provider_http';
  readonly method: Observation<string>;
  readonly direction: EventDirection;
  readonly jsonrpcId: string | number | null;
  readonly request: Observation<JsonValue>;
  readonly response: Observation<JsonValue>;
  readonly error: Observation<ProtocolErrorValue>;
}

/** A transport connecting or disconnecting. */
export interface TransportEntry extends EntryBase {
  readonly kind: 'transport';
  readonly phase: 'connected' | 'disconnected';
  readonly configured: Observation<TransportKind>;
  readonly instrumented: Observation<string>;
  /** Why the transport disconnected, when the recorder said. */
  readonly reason?: string;
}

/** What the server said about itself at `initialize`. */
export interface InitializationValue {
  readonly protocolVersion: string;
  readonly serverInfo: JsonObject;
  readonly capabilities: JsonObject;
  readonly instructions: string | null;
}

/** The observed initialization of one server. */
export interface InitializationEntry extends EntryBase {
  readonly kind: 'initialization';
  readonly protocolVersion: Observation<string>;
  /** The protocol era, `legacy` or `modern` (contract §23); not_emitted in traces recorded before eras. */
  readonly era: Observation<string>;
  readonly serverName: Observation<string>;
  readonly serverVersion: Observation<string>;
  readonly instructions: Observation<string>;
  readonly capabilities: Observation<JsonObject>;
  /** Names of the tools this connection discovered through `tools/list` (not_emitted if never listed). */
  readonly tools: Observation<string[]>;
}

/** Token usage and cost. */
export interface UsageValue {
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly totalTokens: number | null;
  readonly reasoningTokens: number | null;
  readonly cost: number | null;
  readonly currency: string | null;
}

/** A usage report. */
export interface UsageEntry extends EntryBase {
  readonly kind: 'usage';
  readonly usage: Observation<UsageValue>;
}

/** A server-to-client or agent-to-client interaction (sampling, elicitation, permission, roots). */
export interface InteractionEntry extends EntryBase {
  readonly kind: 'interaction';
  readonly interactionKind: string;
  readonly request: Observation<JsonValue>;
  readonly response: Observation<JsonValue>;
  /** 2026-07-28 `input_required` rounds: which round of the call (from 1) asked for this input. */
  readonly round?: number;
  /** 2026-07-28 `input_required` rounds: the key of this input in `inputRequests`/`inputResponses`. */
  readonly inputKey?: string;
}

/** Captured stderr of a process. */
export interface StderrCapture {
  readonly preview: string;
  readonly sizeBytes: number;
  readonly truncated: boolean;
  readonly redacted: boolean;
  readonly evidenceRef?: EvidenceRef;
}

/** A child process started and exited. */
export interface ProcessEntry extends EntryBase {
  readonly kind: 'process';
  readonly executable: Observation<string>;
  readonly pid: Observation<number>;
  readonly exitCode: Observation<number>;
  readonly signal: Observation<string>;
  readonly stderr: Observation<StderrCapture>;
}

/** A diagnostic: a deadline, an unmatched response, a cleanup problem. */
export interface DiagnosticEntry extends EntryBase {
  readonly kind: 'diagnostic';
  readonly code: string;
  readonly message: string;
  readonly stage?: string;
  readonly operation?: string;
  readonly elapsedMs?: number;
  readonly timeoutMs?: number;
}

/** A raw frame kept as redacted, bounded evidence. */
export interface RawMessageEntry extends EntryBase {
  readonly kind: 'raw_message';
  readonly source: 'mcp' | 'acp' | 'harness' | 'provider_http' | 'process_stderr';
  readonly direction: EventDirection;
  readonly mediaType: string;
  readonly preview: Observation<string>;
  readonly evidenceRef: EvidenceRef;
  readonly sizeBytes: number;
  readonly redacted: true;
}

/** An evaluation recorded during the execution. */
export interface EvaluationEntry extends EntryBase {
  readonly kind: 'evaluation';
  readonly evaluator: string;
  readonly evaluationStatus: string;
  readonly evaluationId: string;
}

/** Any timeline entry. */
export type TraceEntry =
  | LifecycleEntry
  | MessageEntry
  | ReasoningEntry
  | ToolCallEntry
  | ProtocolEntry
  | TransportEntry
  | InitializationEntry
  | UsageEntry
  | InteractionEntry
  | ProcessEntry
  | DiagnosticEntry
  | RawMessageEntry
  | EvaluationEntry;

/** Timing of a whole trace. */
export interface TraceTiming {
  readonly startedAt: string;
  readonly finishedAt: string | null;
  readonly durationMs: number;
}

/** Counts and health of a whole trace (the same in every filtered view). */
export interface TraceSummary {
  readonly timing: TraceTiming;
  readonly usage: Observation<UsageValue>;
  readonly turnCount: number;
  readonly messageCount: number;
  readonly toolCallCount: number;
  readonly successfulToolCallCount: number;
  readonly failedToolCallCount: number;
  readonly protocolErrorCount: number;
  readonly activityHealth: ActivityHealth;
}

/** What the source of a trace could report, by runtime kind. */
export type TraceRuntime =
  | {
      readonly kind: 'direct';
      readonly transport: Observation<TransportKind>;
      readonly protocol: Observation<string>;
      readonly initialization: Observation<InitializationValue>;
    }
  | {
      readonly kind: 'acp' | 'openai' | 'claude_code' | 'codex' | 'opencode' | 'pi';
      readonly sessionId: Observation<string>;
      readonly protocolVersion: Observation<string>;
      readonly agent: Observation<JsonObject>;
      readonly model: Observation<string>;
      readonly usage: Observation<UsageValue>;
      /**
       * The protocol revision and era the agent's MCP client negotiated with each server, as the
       * capture layer saw it (contract §23); absent when no server's initialization was observed.
       */
      readonly mcpServers?: Observation<AgentServerProtocol[]>;
    };

/** Which revision an agent negotiated with one of its MCP servers (contract §23). */
export interface AgentServerProtocol {
  readonly server: string;
  readonly protocolVersion: string;
  /** `legacy` (the 2025 handshake) or `modern` (2026-07-28). */
  readonly era: string;
}

/** The JSON form of a view: what `JSON.parse(JSON.stringify(view))` gives back. */
export interface TraceViewData {
  readonly schema: 'm3.trace_view';
  readonly schemaVersion: 1;
  readonly traceId: string;
  readonly executionId: string;
  readonly outcome: ExecutionOutcome;
  readonly completeness: TraceCompleteness;
  readonly limitations: string[];
  readonly runtime: TraceRuntime;
  readonly summary: TraceSummary;
  readonly timeline: TraceEntry[];
}
