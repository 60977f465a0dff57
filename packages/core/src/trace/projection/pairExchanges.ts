import { EventKind, type EventDirection, type TraceEvent } from '../Event';
import { connectionKeyOf, isJsonObject, stringField } from './ProjectionContext';

/** How an exchange ended without (or before) a response. */
export type TerminalStatus = 'timed_out' | 'cancelled' | 'transport_error';

/** One JSON-RPC request with whatever answered or ended it. */
export interface RpcExchange {
  readonly request: TraceEvent;
  /** The result (`mcp.response`, `tool.result_received`, ...) or error (`mcp.error`) paired to it. */
  response?: TraceEvent;
  /** A diagnostic or cancellation that ended the request before any response. */
  terminal?: TraceEvent;
  terminalStatus?: TerminalStatus;
}

/** Requests paired with their responses, plus responses that matched no request. */
export interface Pairing {
  readonly exchanges: RpcExchange[];
  readonly unmatchedResponses: TraceEvent[];
}

const REQUEST_KINDS: ReadonlySet<string> = new Set([
  EventKind.MCP_REQUEST,
  EventKind.TOOL_CALL_REQUESTED,
  EventKind.SAMPLING_REQUEST,
  EventKind.ELICITATION_REQUEST,
  EventKind.PERMISSION_REQUEST,
]);
const RESPONSE_KINDS: ReadonlySet<string> = new Set([
  EventKind.MCP_RESPONSE,
  EventKind.MCP_ERROR,
  EventKind.TOOL_RESULT_RECEIVED,
  EventKind.SAMPLING_RESPONSE,
  EventKind.ELICITATION_RESPONSE,
  EventKind.PERMISSION_RESPONSE,
]);
/** Diagnostic codes that end a pending request (payloads.ts `DiagnosticPayload`). */
const TERMINAL_CODES: Record<string, TerminalStatus> = {
  operation_timeout: 'timed_out',
  operation_cancelled: 'cancelled',
  transport_closed: 'transport_error',
};

const OPPOSITE: Partial<Record<EventDirection, EventDirection>> = {
  client_to_server: 'server_to_client',
  server_to_client: 'client_to_server',
  sdk_to_harness: 'harness_to_sdk',
  harness_to_sdk: 'sdk_to_harness',
};

/** True for a request recorded without a JSON-RPC id (it can never be answered; kept as incomplete). */
export function isUnnumberedRequest(event: TraceEvent): boolean {
  return REQUEST_KINDS.has(event.kind) && event.origin !== 'harness_reported' && event.jsonrpcId === undefined;
}

/** True for a JSON-RPC request observed on a wire (not an agent's own report). */
export function isWireRequest(event: TraceEvent): boolean {
  return REQUEST_KINDS.has(event.kind) && event.origin !== 'harness_reported' && event.jsonrpcId !== undefined;
}

/** True for a response observed on a wire. */
export function isWireResponse(event: TraceEvent): boolean {
  return RESPONSE_KINDS.has(event.kind) && event.origin !== 'harness_reported' && event.jsonrpcId !== undefined;
}

function keyOf(connection: string, direction: EventDirection | undefined, id: string | number): string {
  return `${connection}\u0000${direction ?? '?'}\u0000${typeof id}:${String(id)}`;
}

/** The request id a `notifications/cancelled` event names, if any. */
function cancelledRequestId(event: TraceEvent): string | number | undefined {
  const isCancel =
    event.kind === EventKind.MCP_CANCELLATION_REQUESTED ||
    (event.kind === EventKind.MCP_NOTIFICATION && stringField(event.payload, 'method') === 'notifications/cancelled');
  if (!isCancel || !isJsonObject(event.payload.params)) return undefined;
  const id = event.payload.params.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/**
 * Pairs every wire request with the response carrying the same JSON-RPC id on the same connection
 * in the opposite direction (first come, first served when ids repeat). Diagnostics and
 * cancellations naming a pending request end it with a terminal status; a diagnostic outranks a
 * cancellation notification (the SDK cancels before it reports the timeout).
 */
export function pairExchanges(events: readonly TraceEvent[]): Pairing {
  const exchanges: RpcExchange[] = [];
  const unmatchedResponses: TraceEvent[] = [];
  const pending = new Map<string, RpcExchange[]>();
  const findPending = (connection: string, id: string | number, direction: EventDirection | undefined) => {
    const directions: (EventDirection | undefined)[] =
      direction === undefined
        ? ['client_to_server', 'server_to_client', 'sdk_to_harness', 'harness_to_sdk', undefined]
        : [direction, undefined];
    for (const d of directions) {
      const queue = pending.get(keyOf(connection, d, id));
      const open = queue?.find((x) => x.response === undefined);
      if (open) return open;
    }
    return undefined;
  };

  for (const event of events) {
    if (isWireRequest(event)) {
      const exchange: RpcExchange = { request: event };
      exchanges.push(exchange);
      const key = keyOf(connectionKeyOf(event), event.direction, event.jsonrpcId!);
      pending.set(key, [...(pending.get(key) ?? []), exchange]);
    } else if (isWireResponse(event)) {
      const requestDirection = event.direction === undefined ? undefined : OPPOSITE[event.direction];
      const exchange = findPending(connectionKeyOf(event), event.jsonrpcId!, requestDirection);
      if (exchange) exchange.response = event;
      else unmatchedResponses.push(event);
    } else if (event.kind === EventKind.DIAGNOSTIC && event.jsonrpcId !== undefined) {
      const status = TERMINAL_CODES[stringField(event.payload, 'code') ?? ''];
      const exchange = status && findPending(connectionKeyOf(event), event.jsonrpcId, undefined);
      if (status && exchange && (exchange.terminal === undefined || exchange.terminal.kind !== EventKind.DIAGNOSTIC)) {
        exchange.terminal = event;
        exchange.terminalStatus = status;
      }
    } else {
      const id = cancelledRequestId(event);
      if (id === undefined) continue;
      const requestDirection = event.direction === undefined ? undefined : event.direction;
      const exchange = findPending(connectionKeyOf(event), id, requestDirection);
      if (exchange && exchange.terminal === undefined) {
        exchange.terminal = event;
        exchange.terminalStatus = 'cancelled';
      }
    }
  }
  return { exchanges, unmatchedResponses };
}
