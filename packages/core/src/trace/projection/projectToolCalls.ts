import type { ToolCallStatus } from '../../enums';
import type { JsonValue } from '../../json';
import { EventKind, type TraceEvent } from '../Event';
import { notEmitted, observation, observed, unavailable, unsupported, type Observation } from '../Observation';
import type {
  ContentBlock,
  CorrelationState,
  EvidenceConflict,
  ReportedToolCall,
  ToolCallEntry,
  ToolPolicyVerdict,
  ToolResultValue,
  WireToolCall,
} from '../TraceEntry';
import { correlateToolCalls } from './correlateToolCalls';
import type { RpcExchange } from './pairExchanges';
import {
  callIdOf,
  canonicalJson,
  entryBase,
  isJsonObject,
  stringField,
  type ProjectionContext,
} from './ProjectionContext';
import { protocolErrorOf, reportedToolStatus, toolResultOf, wireToolStatus } from './toolResults';

/** A `tools/call` seen on the wire, decoded. */
interface WireCall {
  readonly exchange: RpcExchange;
  readonly server: string;
  readonly tool: Observation<string>;
  readonly arguments: Observation<JsonValue>;
  readonly result: Observation<ToolResultValue>;
  readonly status: ToolCallStatus;
  readonly latencyMs: number | null;
  readonly wire: WireToolCall;
}

/** A tool call as the agent reported it, with its reported result when there is one. */
interface ReportedCall {
  readonly request: TraceEvent;
  /** Later reports of the same call (same `providerCallId` and turn) with new input. */
  readonly amendments: TraceEvent[];
  result?: TraceEvent;
  value: ReportedToolCall;
}

/** True for a request event that is a `tools/call`. */
export function isToolCallRequest(event: TraceEvent): boolean {
  return event.kind === EventKind.TOOL_CALL_REQUESTED || stringField(event.payload, 'method') === 'tools/call';
}

function argumentsOf(params: JsonValue | undefined, payloadDropped: boolean): Observation<JsonValue> {
  if (payloadDropped) return observation<JsonValue>('truncated', null, 'evidence_truncated');
  if (!isJsonObject(params)) return unavailable('malformed_source');
  if (params.arguments === undefined || params.arguments === null) return notEmitted();
  return isJsonObject(params.arguments) ? observed(params.arguments) : unavailable('malformed_source');
}

function decodeWire(context: ProjectionContext, exchange: RpcExchange): WireCall {
  const { request, response } = exchange;
  const params = request.payload.params;
  const name = isJsonObject(params) ? params.name : undefined;
  const tool: Observation<string> = typeof name === 'string' ? observed(name) : unavailable('malformed_source');
  const args = argumentsOf(params, request.payload.payloadDropped === true);
  const result: Observation<ToolResultValue> =
    response === undefined || response.kind === EventKind.MCP_ERROR
      ? notEmitted()
      : toolResultOf(response.payload.result, response.payload.payloadDropped === true);
  const status = wireToolStatus(exchange, result);
  const latencyMs = response === undefined ? null : Math.max(0, response.offsetMs - request.offsetMs);
  const server = request.server ?? context.defaultServer ?? '';
  const wire: WireToolCall = {
    jsonrpcId: request.jsonrpcId ?? null,
    server,
    tool: tool.value ?? '',
    arguments: args.value ?? null,
    result,
    latencyMs,
  };
  return { exchange, server, tool, arguments: args, result, status, latencyMs, wire };
}

function reportedArguments(request: TraceEvent): Observation<JsonValue> {
  const params = request.payload.params;
  return isJsonObject(params) && params.arguments !== undefined ? observed(params.arguments) : notEmitted();
}

function decodeReported(request: TraceEvent): ReportedCall {
  const params = request.payload.params;
  const name = isJsonObject(params) && typeof params.name === 'string' ? params.name : '';
  return {
    request,
    amendments: [],
    value: {
      providerCallId: stringField(request.payload, 'providerCallId') ?? null,
      server: request.server ?? null,
      tool: name,
      arguments: reportedArguments(request),
      result: notEmitted(),
      status: notEmitted(),
    },
  };
}

function withReportedResult(call: ReportedCall): ReportedToolCall {
  if (call.result === undefined) return call.value;
  const payload = call.result.payload;
  const status = stringField(payload, 'status');
  return {
    ...call.value,
    result: payload.result === undefined ? notEmitted() : observed(payload.result),
    status: status === undefined ? notEmitted() : observed(status),
  };
}

/**
 * The call a later request re-reports: same `providerCallId`, same turn, no result yet. (An id
 * seen again after its call's result is a new call: some models number their calls per round.)
 */
function reReported(calls: readonly ReportedCall[], event: TraceEvent): ReportedCall | undefined {
  const id = stringField(event.payload, 'providerCallId');
  if (id === undefined) return undefined;
  return calls.findLast(
    (c) => c.value.providerCallId === id && c.request.turnId === event.turnId && c.result === undefined,
  );
}

/**
 * Pairs reported requests with reported results by `providerCallId` (else the latest open call).
 * A request repeating a `providerCallId` of the same turn re-reports that call: its latest
 * arguments stand (an agent may send a placeholder input first and the real one later).
 */
function collectReported(events: readonly TraceEvent[]): ReportedCall[] {
  const calls: ReportedCall[] = [];
  for (const event of events) {
    if (event.origin !== 'harness_reported') continue;
    if (event.kind === EventKind.TOOL_CALL_REQUESTED) {
      const earlier = reReported(calls, event);
      if (earlier === undefined) calls.push(decodeReported(event));
      else {
        earlier.amendments.push(event);
        earlier.value = { ...earlier.value, arguments: reportedArguments(event) };
      }
    } else if (event.kind === EventKind.TOOL_RESULT_RECEIVED) {
      const id = stringField(event.payload, 'providerCallId');
      const open = calls.filter((c) => c.result === undefined);
      const match = id !== undefined ? open.find((c) => c.value.providerCallId === id) : open.at(-1);
      if (match) match.result = event;
    }
  }
  return calls;
}

/** Content blocks with ACP `{ type: 'content', content }` wrappers replaced by what they wrap. */
function unwrapAcpContent(blocks: readonly JsonValue[]): JsonValue[] {
  return blocks.map((b) => (isJsonObject(b) && b.type === 'content' && isJsonObject(b.content) ? b.content : b));
}

/** The text of the `text` blocks (ACP-wrapped or not), one per line. */
function textOfBlocks(blocks: readonly JsonValue[]): string {
  return unwrapAcpContent(blocks)
    .flatMap((b) => (isJsonObject(b) && b.type === 'text' && typeof b.text === 'string' ? [b.text] : []))
    .join('\n');
}

/** The blocks of a reported result that is ACP tool-call content rather than an MCP `CallToolResult`. */
function acpContentOf(reported: JsonValue | null): JsonValue[] | undefined {
  if (!isJsonObject(reported) || !Array.isArray(reported.content)) return undefined;
  return reported.content.some((b) => isJsonObject(b) && b.type === 'content') ? reported.content : undefined;
}

/**
 * Compares a reported result with the wire result. An MCP-shaped report is compared by shape
 * (`isError: false` ≡ absent); a plain string or ACP `content` blocks (which cannot carry
 * `structuredContent`) by text. Undefined when the report is neither.
 */
function sameResult(reported: JsonValue, wire: ToolResultValue): boolean | undefined {
  const wireText = textOfBlocks(wire.content as JsonValue[]);
  if (typeof reported === 'string') return reported === wireText;
  if (!isJsonObject(reported) || !Array.isArray(reported.content)) return undefined;
  const acp = acpContentOf(reported);
  if (acp !== undefined) return textOfBlocks(acp) === wireText;
  const shape = (content: JsonValue, structured: JsonValue | undefined, isError: boolean) =>
    canonicalJson({ content, structured: structured ?? null, isError });
  return (
    shape(reported.content, reported.structuredContent, reported.isError === true) ===
    shape(wire.content as JsonValue, wire.structuredContent.value ?? undefined, wire.isError)
  );
}

function conflictsOf(reported: ReportedToolCall, reportedTurn: string | undefined, wire: WireCall): EvidenceConflict[] {
  const conflicts: EvidenceConflict[] = [];
  const wireTurn = wire.exchange.request.turnId;
  if (reportedTurn !== undefined && wireTurn !== undefined && reportedTurn !== wireTurn) {
    conflicts.push({ field: 'turn', reported: reportedTurn, wire: wireTurn });
  }
  if (reported.server !== null && reported.server !== wire.server) {
    conflicts.push({ field: 'server', reported: reported.server, wire: wire.server });
  }
  if (reported.tool !== (wire.tool.value ?? ''))
    conflicts.push({ field: 'tool', reported: reported.tool, wire: wire.tool.value });
  const args = reported.arguments;
  if (args.state === 'observed' && canonicalJson(args.value ?? null) !== canonicalJson(wire.arguments.value ?? {})) {
    conflicts.push({ field: 'arguments', reported: args.value, wire: wire.arguments.value });
  }
  if (reported.result.state === 'observed' && wire.result.state === 'observed') {
    if (sameResult(reported.result.value!, wire.result.value!) === false) {
      conflicts.push({
        field: 'result',
        reported: reported.result.value,
        wire: wire.result.value as unknown as JsonValue,
      });
    }
  }
  const reportedStatus = reportedToolStatus(reported.status.value ?? undefined);
  if (reportedStatus !== undefined && (reportedStatus === 'success') !== (wire.status === 'success')) {
    conflicts.push({ field: 'status', reported: reported.status.value, wire: wire.status });
  }
  return conflicts;
}

/** The capture proxy's verdict on the request payload (`policy: { decision, reason }`), if any. */
function policyOf(request: TraceEvent): ToolPolicyVerdict | undefined {
  const policy = request.payload.policy;
  if (!isJsonObject(policy) || typeof policy.reason !== 'string') return undefined;
  if (policy.decision !== 'allowed' && policy.decision !== 'denied') return undefined;
  return { decision: policy.decision, reason: policy.reason };
}

function wireEntry(
  context: ProjectionContext,
  wire: WireCall,
  reported: ReportedCall | undefined,
  inputRounds: number | undefined,
): ToolCallEntry {
  const { request, response, terminal } = wire.exchange;
  const sources = [request, response, reported?.request, ...(reported?.amendments ?? []), reported?.result];
  const reportedValue = reported && withReportedResult(reported);
  const correlation: CorrelationState = reported ? 'correlated' : 'wire_only';
  const policy = policyOf(request);
  const reportedObs: Observation<ReportedToolCall> = reportedValue
    ? observed(reportedValue)
    : context.runtimeKind === 'direct'
      ? unsupported('harness_unsupported')
      : notEmitted();
  return {
    ...entryBase(context, 'tool_call', sources, wire.status, response ? undefined : terminal),
    server: wire.server,
    callId: callIdOf(request),
    status: wire.status,
    tool: wire.tool,
    arguments: wire.arguments,
    result: wire.result,
    error: protocolErrorOf(response),
    jsonrpcId: request.jsonrpcId ?? null,
    providerCallId: reportedValue?.providerCallId ?? null,
    correlation,
    toolStatus: wire.status,
    latencyMs: wire.latencyMs,
    wire: observed(wire.wire),
    reported: reportedObs,
    conflicts: reportedValue ? conflictsOf(reportedValue, reported?.request.turnId, wire) : [],
    ...(policy !== undefined && { policy }),
    ...(inputRounds !== undefined && { inputRounds }),
  };
}

/** A reported result normalised to the wire shape when it has one (MCP result or plain text). */
export function reportedResultAsTool(value: ReportedToolCall, status: ToolCallStatus): Observation<ToolResultValue> {
  if (value.result.state !== 'observed')
    return value.result.state === 'not_emitted' ? notEmitted() : unavailable('malformed_source');
  const raw = value.result.value;
  const plain = (content: JsonValue[]) =>
    observed<ToolResultValue>({
      content: content as ContentBlock[],
      structuredContent: notEmitted(),
      isError: status === 'tool_error',
    });
  if (typeof raw === 'string') return plain([{ type: 'text', text: raw }]);
  const acp = acpContentOf(raw);
  if (acp !== undefined) return plain(unwrapAcpContent(acp));
  return toolResultOf(raw ?? undefined);
}

function reportedEntry(context: ProjectionContext, call: ReportedCall): ToolCallEntry {
  const value = withReportedResult(call);
  // A result with no status word is a success; a word that says neither success, failure nor
  // cancellation (e.g. ACP's `in_progress` on a last update) leaves the call `incomplete`.
  const word = value.status.value ?? undefined;
  const status: ToolCallStatus = call.result
    ? (reportedToolStatus(word) ?? (word === undefined ? 'success' : 'incomplete'))
    : 'incomplete';
  const base = entryBase(context, 'tool_call', [call.request, ...call.amendments, call.result], status);
  return {
    ...base,
    server: value.server ?? base.server ?? '',
    callId: callIdOf(call.request),
    status,
    tool: value.tool === '' ? unavailable('malformed_source') : observed(value.tool),
    arguments: value.arguments,
    result: reportedResultAsTool(value, status),
    error: notEmitted(),
    jsonrpcId: null,
    providerCallId: value.providerCallId,
    correlation: 'reported_only',
    toolStatus: status,
    latencyMs: null,
    wire: notEmitted(),
    reported: observed(value),
    conflicts: [],
  };
}

/**
 * Tool-call entries: one per wire `tools/call` exchange, correlated with the agent's reported
 * call when there is one (by the `_meta` id the CLI sent, else turn, tool and order, else
 * arguments: `correlateToolCalls`; wire fields win; disagreements go to `conflicts`), plus one per
 * reported call no wire exchange matched.
 */
export function projectToolCalls(
  context: ProjectionContext,
  toolExchanges: readonly RpcExchange[],
  roundsBefore: ReadonlyMap<RpcExchange, number> = new Map(),
): ToolCallEntry[] {
  const wires = toolExchanges.map((exchange) => decodeWire(context, exchange));
  const { pairs, reportedOnly } = correlateToolCalls(collectReported(context.events), wires);
  return [
    ...wires.map((wire) => wireEntry(context, wire, pairs.get(wire), roundsBefore.get(wire.exchange))),
    ...reportedOnly.map((call) => reportedEntry(context, call)),
  ];
}
