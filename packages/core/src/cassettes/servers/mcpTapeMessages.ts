import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isObject, type JsonValue } from '../../json';
import type { Redactor } from '../../redaction/Redactor';
import type { CassetteRequest, CassetteResponse } from '../CassetteFormat';
import { VolatileStrings } from '../VolatileStrings';

/**
 * How the JSON-RPC traffic of an MCP server sits on a cassette tape (contract §24): a request is
 * `{ method: 'JSONRPC', path: <rpc method>, headers: {}, body: <params> }` with the JSON-RPC id and
 * the request's `_meta` (progress tokens) removed, keys sorted, volatile strings replaced and
 * redacted; an answer is `{ status: 200, headers: {}, body: { result } | { error } }`, id removed,
 * with the messages the server sent before it (notifications, its own requests) in
 * `body.before`, in order.
 */
export const MCP_TAPE_METHOD = 'JSONRPC';

/** A client → server JSON-RPC request (has a method and an id). */
export type McpRequestMessage = { jsonrpc: '2.0'; id: string | number; method: string; params?: unknown };

/** True for a request (method and id), false for notifications and responses. */
export function isRequestMessage(message: unknown): message is McpRequestMessage {
  return isObject(message) && typeof message.method === 'string' && 'id' in message;
}

/** True for a response or error to a request (an id, no method). */
export function isResponseMessage(
  message: unknown,
): message is { id: string | number; result?: unknown; error?: unknown } {
  return isObject(message) && !('method' in message) && 'id' in message && ('result' in message || 'error' in message);
}

/** A deep copy with object keys sorted (JSON values only; `undefined` members dropped). */
function sortKeys(value: unknown): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isObject(value)) {
    const out: Record<string, JsonValue> = {};
    for (const key of Object.keys(value).sort()) {
      if (value[key] !== undefined) out[key] = sortKeys(value[key]);
    }
    return out;
  }
  return value === undefined ? null : (value as JsonValue);
}

/** The request as it is matched and written: method, params without `_meta`, no id; redacted. */
export function tapeRequestOf(
  message: McpRequestMessage,
  redactor: Redactor,
  volatile: VolatileStrings = new VolatileStrings(),
): CassetteRequest {
  let params: unknown = message.params;
  if (isObject(params) && '_meta' in params) {
    const { _meta: _ignored, ...rest } = params;
    params = rest;
  }
  const body = params === undefined ? null : redactor.redactJson(volatile.hideJson(sortKeys(params)));
  return { method: MCP_TAPE_METHOD, path: message.method, headers: {}, body };
}

/**
 * The recorded answer: result or error (id removed) and what the server sent before it; volatile
 * strings replaced by their placeholders, redacted.
 */
export function tapeResponseOf(
  response: JSONRPCMessage,
  before: readonly JSONRPCMessage[],
  redactor: Redactor,
  volatile: VolatileStrings = new VolatileStrings(),
): CassetteResponse {
  const answer = response as { result?: unknown; error?: unknown };
  const body: Record<string, unknown> = 'error' in answer ? { error: answer.error } : { result: answer.result };
  if (before.length > 0) body.before = before;
  return { status: 200, headers: {}, body: redactor.redactJson(volatile.hideJson(sortKeys(body))) };
}

/**
 * The messages a recorded answer replays as, for the request with `id`: what the server sent
 * before it, then the answer with the agent's own id, placeholders given this run's volatile
 * strings back. Null when the tape entry is not an MCP answer.
 */
export function messagesOfTapeResponse(
  response: CassetteResponse,
  id: string | number,
  volatile: VolatileStrings = new VolatileStrings(),
): JSONRPCMessage[] | null {
  const body = response.body === undefined ? undefined : volatile.restoreJson(response.body);
  if (!isObject(body) || !('result' in body || 'error' in body)) return null;
  const before = Array.isArray(body.before) ? (body.before as unknown as JSONRPCMessage[]) : [];
  const answer =
    'error' in body ? { jsonrpc: '2.0', id, error: body.error } : { jsonrpc: '2.0', id, result: body.result };
  return [...before, answer as JSONRPCMessage];
}

/** A short description of a request for messages: `tools/call add`, `resources/read file:///x`. */
export function describeTapeRequest(request: CassetteRequest): string {
  const body = request.body;
  if (isObject(body)) {
    if (typeof body.name === 'string') return `${request.path} ${body.name}`;
    if (typeof body.uri === 'string') return `${request.path} ${body.uri}`;
  }
  return request.path;
}
