import type { JsonValue } from '../json';
import { REDACTED } from '../redaction/Redactor';
import type { EventDirection, EventKind, EventOrigin, LifecyclePhase } from '../trace/Event';
import type { RecordFields } from '../trace/TraceRecorder';
import type { DiagnosticPayload, ErrorResponsePayload, ResponsePayload } from '../trace/payloads';

/** Where one JSON-RPC message was seen: the binding, connection, direction and the agent's scope. */
export interface JsonRpcMessageContext {
  readonly server: string;
  readonly connectionId: string;
  readonly direction: EventDirection;
  /** `normalized` for the kit's own client, `wire_observed` for the capture proxies. */
  readonly origin: EventOrigin;
  readonly sessionId?: string;
  readonly turnId?: string;
}

/** The event one message becomes: its kind and the complete fields for `TraceRecorder.record(Later)`. */
export interface JsonRpcMessageEvent {
  readonly kind: EventKind;
  readonly fields: RecordFields;
}

/**
 * Methods of requests seen on one connection and not yet answered, by direction and typed id, so
 * a response can be named after its request (`tools/call` → `tool.result_received`). One per
 * connection; the mapping keeps it up to date.
 */
export type PendingRequestMethods = Map<string, string>;

/** The requests sent in `direction` that are still unanswered, with their typed ids. */
export function openRequests(
  pending: PendingRequestMethods,
  direction: EventDirection,
): Array<{ id: string | number; method: string }> {
  const out: Array<{ id: string | number; method: string }> = [];
  for (const [key, method] of pending) {
    const first = key.indexOf('|');
    const second = key.indexOf('|', first + 1);
    if (key.slice(0, first) !== direction) continue;
    const raw = key.slice(second + 1);
    out.push({ id: key.slice(first + 1, second) === 'number' ? Number(raw) : raw, method });
  }
  return out;
}

const MCP_CALL_METHODS: ReadonlySet<string> = new Set([
  'tools/call',
  'tools/list',
  'resources/read',
  'resources/list',
  'resources/templates/list',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/get',
  'prompts/list',
  'completion/complete',
]);

/** The kind recorded instead of `mcp.request` for some methods (upstream's direct-trace rule). */
const REQUEST_KINDS: Readonly<Record<string, EventKind>> = {
  'tools/call': 'tool.call_requested',
  'sampling/createMessage': 'sampling.request',
  'elicitation/create': 'elicitation.request',
};
/** The kind recorded instead of `mcp.response` for some methods. */
const RESPONSE_KINDS: Readonly<Record<string, EventKind>> = {
  'tools/call': 'tool.result_received',
  'sampling/createMessage': 'sampling.response',
  'elicitation/create': 'elicitation.response',
};

/** The lifecycle phase of a method: `initialize`, an MCP call, or idle traffic. */
export function phaseOfMethod(method: string | undefined): LifecyclePhase {
  if (method === 'initialize') return 'initialization';
  return method !== undefined && MCP_CALL_METHODS.has(method) ? 'mcp_call' : 'idle';
}

function notificationKind(method: string): EventKind {
  if (method === 'notifications/progress') return 'mcp.progress';
  if (method === 'notifications/cancelled') return 'mcp.cancellation_requested';
  return 'mcp.notification';
}

const opposite = (d: EventDirection): EventDirection =>
  d === 'client_to_server' ? 'server_to_client' : 'client_to_server';

/** The diagnostic for something that is neither a request, a response nor a notification. */
export function malformedMessageEvent(
  frame: string,
  context: JsonRpcMessageContext,
  jsonrpcId?: string | number,
): JsonRpcMessageEvent {
  const payload: DiagnosticPayload = {
    code: 'malformed_message',
    message: 'a message that is neither a JSON-RPC request, response nor notification',
  };
  return {
    kind: 'diagnostic',
    fields: {
      origin: context.origin,
      server: context.server,
      connectionId: context.connectionId,
      direction: context.direction,
      ...(jsonrpcId !== undefined && { jsonrpcId }),
      ...(context.sessionId !== undefined && { sessionId: context.sessionId }),
      ...(context.turnId !== undefined && { turnId: context.turnId }),
      phase: 'unknown',
      payload,
      raw: frame,
      rawSource: 'mcp',
    },
  };
}

/**
 * Maps one JSON-RPC message to the event that records it: `mcp.request` (`tool.call_requested`
 * for `tools/call`; `sampling.request` / `elicitation.request`), `mcp.response` (named after its
 * request: `tool.result_received`, ...), `mcp.error`, `mcp.notification`, `mcp.progress` or
 * `mcp.cancellation_requested`; anything else is a `malformed_message` diagnostic. `safe` is the
 * message already sanitized by the recorder (redacted plain JSON, owned by the caller), `frame`
 * its serialized text kept as raw evidence. Requests update `pending`; responses consume it.
 * Shared by `ObservedTransport` (the kit's own client) and the agents' capture proxies.
 */
export function jsonRpcMessageEvent(
  safe: JsonValue,
  frame: string,
  context: JsonRpcMessageContext,
  pending: PendingRequestMethods,
  rawRedacted: boolean = frame.includes(REDACTED),
): JsonRpcMessageEvent {
  if (safe === null || typeof safe !== 'object' || Array.isArray(safe)) return malformedMessageEvent(frame, context);
  const id = safe.id;
  const jsonrpcId = typeof id === 'string' || typeof id === 'number' ? id : undefined;
  const method = typeof safe.method === 'string' ? safe.method : undefined;
  const { direction } = context;
  // Built in one literal (this runs for every message of a connection).
  const fieldsFor = (phase: LifecyclePhase, payload: object): RecordFields => ({
    origin: context.origin,
    server: context.server,
    connectionId: context.connectionId,
    direction,
    jsonrpcId,
    phase,
    payload,
    preRedacted: true,
    raw: frame,
    rawSource: 'mcp',
    rawRedacted,
    ...(context.sessionId !== undefined && { sessionId: context.sessionId }),
    ...(context.turnId !== undefined && { turnId: context.turnId }),
  });

  if (method !== undefined) {
    const phase = phaseOfMethod(method);
    const payload = { method, params: safe.params ?? null };
    if (jsonrpcId !== undefined) {
      pending.set(`${direction}|${typeof jsonrpcId}|${jsonrpcId}`, method);
      return { kind: REQUEST_KINDS[method] ?? 'mcp.request', fields: fieldsFor(phase, payload) };
    }
    return { kind: notificationKind(method), fields: fieldsFor(phase, payload) };
  }
  if (jsonrpcId !== undefined && ('result' in safe || 'error' in safe)) {
    const key = `${opposite(direction)}|${typeof jsonrpcId}|${jsonrpcId}`;
    const requestMethod = pending.get(key) ?? 'unknown';
    pending.delete(key);
    const phase = phaseOfMethod(requestMethod);
    if ('error' in safe) {
      const error = (typeof safe.error === 'object' && safe.error !== null ? safe.error : {}) as Record<
        string,
        JsonValue
      >;
      const payload: ErrorResponsePayload = {
        method: requestMethod,
        error: {
          code: typeof error.code === 'number' ? error.code : null,
          message: typeof error.message === 'string' ? error.message : '',
          data: error.data ?? null,
        },
      };
      return { kind: 'mcp.error', fields: fieldsFor(phase, payload) };
    }
    const payload: ResponsePayload = { method: requestMethod, result: safe.result ?? null };
    return { kind: RESPONSE_KINDS[requestMethod] ?? 'mcp.response', fields: fieldsFor(phase, payload) };
  }
  return malformedMessageEvent(frame, context, jsonrpcId);
}
