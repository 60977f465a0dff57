import type { JsonObject } from '../json';
import type { EvidenceRef } from './EvidenceRef';

/** Every kind of event a trace can hold (dotted names, stored as data). */
export const EventKind = Object.freeze({
  EXECUTION_CREATED: 'execution.created',
  EXECUTION_STATE_CHANGED: 'execution.state_changed',
  EXECUTION_FINISHED: 'execution.finished',
  SESSION_CREATED: 'session.created',
  SESSION_STATE_CHANGED: 'session.state_changed',
  TURN_CREATED: 'turn.created',
  TURN_STATE_CHANGED: 'turn.state_changed',
  PROCESS_STARTED: 'process.started',
  PROCESS_EXITED: 'process.exited',
  TRANSPORT_CONNECTED: 'transport.connected',
  TRANSPORT_DISCONNECTED: 'transport.disconnected',
  AUTH_CHALLENGE: 'auth.challenge',
  AUTH_REQUEST: 'auth.request',
  AUTH_COMPLETED: 'auth.completed',
  AUTH_FAILED: 'auth.failed',
  MCP_INITIALIZED: 'mcp.initialized',
  MCP_REQUEST: 'mcp.request',
  MCP_RESPONSE: 'mcp.response',
  MCP_ERROR: 'mcp.error',
  MCP_NOTIFICATION: 'mcp.notification',
  MCP_PROGRESS: 'mcp.progress',
  MCP_CANCELLATION_REQUESTED: 'mcp.cancellation_requested',
  MCP_CANCELLATION_COMPLETED: 'mcp.cancellation_completed',
  AGENT_MESSAGE: 'agent.message',
  ASSISTANT_CONTENT: 'assistant.content',
  TOOL_CALL_REQUESTED: 'tool.call_requested',
  TOOL_RESULT_RECEIVED: 'tool.result_received',
  PERMISSION_REQUEST: 'permission.request',
  PERMISSION_RESPONSE: 'permission.response',
  SAMPLING_REQUEST: 'sampling.request',
  SAMPLING_RESPONSE: 'sampling.response',
  ELICITATION_REQUEST: 'elicitation.request',
  ELICITATION_RESPONSE: 'elicitation.response',
  REASONING: 'reasoning',
  USAGE: 'usage',
  EVALUATION_RECORDED: 'evaluation.recorded',
  CLEANUP_STARTED: 'cleanup.started',
  CLEANUP_FINISHED: 'cleanup.finished',
  DIAGNOSTIC: 'diagnostic',
  RAW_FRAME: 'raw.frame',
  PROVIDER_EVENT: 'provider.event',
} as const);
export type EventKind = (typeof EventKind)[keyof typeof EventKind];

/** Which way a message travelled. */
export type EventDirection = 'client_to_server' | 'server_to_client' | 'sdk_to_harness' | 'harness_to_sdk' | 'internal';

/** Where an event's facts came from. */
export type EventOrigin = 'normalized' | 'wire_observed' | 'harness_reported' | 'derived';

/** The lifecycle phase an event happened in. */
export type LifecyclePhase =
  'preflight' | 'startup' | 'initialization' | 'idle' | 'turn' | 'mcp_call' | 'cleanup' | 'terminal' | 'unknown';

/**
 * One fact in a trace. Events are numbered 0..n-1 per execution; payloads are redacted and
 * bounded before they are recorded, and never hold a secret.
 */
export interface TraceEvent {
  /** Schema of the stored event; bumped on incompatible change. */
  readonly schemaVersion: 1;
  /** `evt-<executionId>-<sequence>`. */
  readonly eventId: string;
  readonly sequence: number;
  readonly kind: EventKind;
  readonly executionId: string;
  /** ISO-8601 UTC wall-clock time. */
  readonly timestamp: string;
  /** Monotonic milliseconds since the execution was created. */
  readonly offsetMs: number;
  readonly phase: LifecyclePhase;
  readonly origin: EventOrigin;
  readonly direction?: EventDirection;
  /** Server binding name the event concerns. */
  readonly server?: string;
  readonly connectionId?: string;
  readonly sessionId?: string;
  readonly turnId?: string;
  /** JSON-RPC id of the request this event belongs to. */
  readonly jsonrpcId?: string | number;
  readonly payload: JsonObject;
  /** The redacted, bounded raw frame or stderr this event was decoded from. */
  readonly rawEvidence?: EvidenceRef;
}

/** contract name for a trace event. */
export type Event = TraceEvent;
