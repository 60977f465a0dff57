import type { JsonValue } from '../../json';
import { EventKind, type TraceEvent } from '../Event';
import { notEmitted, observed, unavailable, type Observation } from '../Observation';
import type { DiagnosticEntry, EntryStatus, InteractionEntry, ProtocolEntry } from '../TraceEntry';
import type { RpcExchange } from './pairExchanges';
import { entryBase, stringField, type ProjectionContext } from './ProjectionContext';
import { protocolErrorOf } from './toolResults';

/** Methods a server (or agent) sends to the client that are interactions, by kind. */
const INTERACTION_METHODS: Record<string, string> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
  'session/request_permission': 'permission',
};
const INTERACTION_KINDS: Record<string, string> = {
  [EventKind.SAMPLING_REQUEST]: 'sampling',
  [EventKind.ELICITATION_REQUEST]: 'elicitation',
  [EventKind.PERMISSION_REQUEST]: 'permission',
};
/** Notification event kinds that become protocol entries. */
const NOTIFICATION_KINDS: ReadonlySet<string> = new Set([
  EventKind.MCP_NOTIFICATION,
  EventKind.MCP_PROGRESS,
  EventKind.MCP_CANCELLATION_REQUESTED,
  EventKind.MCP_CANCELLATION_COMPLETED,
]);

/** The interaction kind of a request, or undefined when it is a plain protocol request. */
export function interactionKindOf(request: TraceEvent): string | undefined {
  return INTERACTION_KINDS[request.kind] ?? INTERACTION_METHODS[stringField(request.payload, 'method') ?? ''];
}

/** True for an event that becomes a notification protocol entry. */
export function isNotification(event: TraceEvent): boolean {
  return NOTIFICATION_KINDS.has(event.kind);
}

function exchangeStatus(exchange: RpcExchange): EntryStatus {
  const { response, terminal, terminalStatus } = exchange;
  if (terminal && terminalStatus && (response === undefined || terminal.sequence < response.sequence))
    return terminalStatus;
  if (response === undefined) return 'incomplete';
  return response.kind === EventKind.MCP_ERROR ? 'protocol_error' : 'completed';
}

function methodOf(event: TraceEvent): Observation<string> {
  const method = stringField(event.payload, 'method');
  return method === undefined ? unavailable('malformed_source') : observed(method);
}

/**
 * JSON-RPC params and results are objects when present; recorders write an absent one as null,
 * so null is not_emitted rather than an observed null.
 */
function paramsOf(event: TraceEvent): Observation<JsonValue> {
  const params = event.payload.params;
  return params === undefined || params === null ? notEmitted() : observed(params);
}

function resultOf(response: TraceEvent | undefined): Observation<JsonValue> {
  if (response === undefined || response.kind === EventKind.MCP_ERROR) return notEmitted();
  const result = response.payload.result;
  return result === undefined || result === null ? notEmitted() : observed(result);
}

function protocolOf(event: TraceEvent): ProtocolEntry['protocol'] {
  return event.direction === 'sdk_to_harness' || event.direction === 'harness_to_sdk' ? 'acp' : 'mcp';
}

/** A non-tool request/response pair as a protocol entry (`initialize`, `tools/list`, `ping`, ...). */
export function projectExchange(context: ProjectionContext, exchange: RpcExchange): ProtocolEntry {
  const { request, response, terminal } = exchange;
  return {
    ...entryBase(context, 'protocol', [request, response], exchangeStatus(exchange), response ? undefined : terminal),
    protocol: protocolOf(request),
    method: methodOf(request),
    direction: request.direction ?? 'internal',
    jsonrpcId: request.jsonrpcId ?? null,
    request: paramsOf(request),
    response: resultOf(response),
    error: protocolErrorOf(response),
  };
}

/** A server-to-client request (sampling, elicitation, roots, permission) as an interaction. */
export function projectInteraction(context: ProjectionContext, exchange: RpcExchange, kind: string): InteractionEntry {
  const { request, response, terminal } = exchange;
  const status = exchangeStatus(exchange);
  return {
    ...entryBase(context, 'interaction', [request, response], status, response ? undefined : terminal),
    interactionKind: kind,
    request: paramsOf(request),
    response: response?.kind === EventKind.MCP_ERROR ? observed(response.payload.error ?? null) : resultOf(response),
  };
}

/** A notification (either direction) as a protocol entry without a response. */
export function projectNotification(context: ProjectionContext, event: TraceEvent): ProtocolEntry {
  return {
    ...entryBase(context, 'protocol', [event], 'completed'),
    protocol: protocolOf(event),
    method: methodOf(event),
    direction: event.direction ?? 'internal',
    jsonrpcId: null,
    request: paramsOf(event),
    response: notEmitted(),
    error: notEmitted(),
  };
}

/** A response no request matched, kept as a diagnostic rather than dropped. */
export function projectUnmatchedResponse(context: ProjectionContext, event: TraceEvent): DiagnosticEntry {
  return {
    ...entryBase(context, 'diagnostic', [event], 'incomplete'),
    code: 'unmatched_response',
    message: `a ${event.kind} event with JSON-RPC id ${String(event.jsonrpcId)} matched no request on its connection`,
  };
}
