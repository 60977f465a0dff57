import type { ToolCallStatus } from '../../enums';
import type { JsonValue } from '../../json';
import type { TraceEvent } from '../Event';
import { notEmitted, observation, observed, unavailable, type Observation } from '../Observation';
import type { ContentBlock, ProtocolErrorValue, ToolResultValue } from '../TraceEntry';
import type { RpcExchange } from './pairExchanges';
import { isJsonObject } from './ProjectionContext';

/** A `CallToolResult` from the wire as a `ToolResultValue`, or unavailable when malformed. */
export function toolResultOf(result: JsonValue | undefined, payloadDropped = false): Observation<ToolResultValue> {
  // Past the evidence budget the response kept its scalars only: the result was seen, not stored.
  if (payloadDropped) return observation<ToolResultValue>('truncated', null, 'evidence_truncated');
  if (!isJsonObject(result)) return unavailable('malformed_source');
  const content = result.content ?? [];
  if (!Array.isArray(content) || !content.every((b) => isJsonObject(b) && typeof b.type === 'string')) {
    return unavailable('malformed_source');
  }
  if (result.isError !== undefined && typeof result.isError !== 'boolean') return unavailable('malformed_source');
  return observed<ToolResultValue>({
    content: content as ContentBlock[],
    structuredContent: result.structuredContent === undefined ? notEmitted() : observed(result.structuredContent),
    isError: result.isError === true,
  });
}

/** A JSON-RPC error payload as an observation. */
export function protocolErrorOf(event: TraceEvent | undefined): Observation<ProtocolErrorValue> {
  if (event === undefined || event.kind !== 'mcp.error') return notEmitted();
  const error = event.payload.error;
  if (!isJsonObject(error) || typeof error.message !== 'string') return unavailable('malformed_source');
  return observed({
    code: typeof error.code === 'number' ? error.code : null,
    message: error.message,
    data: error.data ?? null,
  });
}

/** How a wire tool call ended, from its exchange (contract §5 status vocabulary). */
export function wireToolStatus(exchange: RpcExchange, result: Observation<ToolResultValue>): ToolCallStatus {
  const { response, terminal, terminalStatus } = exchange;
  if (terminal && terminalStatus && (response === undefined || terminal.sequence < response.sequence)) {
    return terminalStatus;
  }
  if (response === undefined) return 'incomplete';
  if (response.kind === 'mcp.error') return 'protocol_error';
  if (result.state === 'truncated') {
    const kept = response.payload.result;
    return isJsonObject(kept) && kept.isError === true ? 'tool_error' : 'success';
  }
  if (result.state !== 'observed') return 'protocol_error';
  return result.value!.isError ? 'tool_error' : 'success';
}

/** Reported statuses in an agent's words that mean the call succeeded. */
const REPORTED_SUCCESS = new Set(['completed', 'complete', 'success', 'succeeded', 'ok', 'done']);
/** Reported statuses that mean the call failed. */
const REPORTED_FAILURE = new Set(['failed', 'failure', 'error', 'errored', 'rejected', 'denied']);

/** Maps an agent's status word to success / tool_error, or undefined when it says neither. */
export function reportedToolStatus(status: string | undefined): ToolCallStatus | undefined {
  if (status === undefined) return undefined;
  const word = status.toLowerCase();
  if (REPORTED_SUCCESS.has(word)) return 'success';
  if (REPORTED_FAILURE.has(word)) return 'tool_error';
  if (word === 'cancelled' || word === 'canceled') return 'cancelled';
  return undefined;
}
