import { RuntimeKind, type ExecutionOutcome } from '../../enums';
import { TraceNotFinalized, TraceUnavailable } from '../../errors';
import { EventKind, type TraceEvent } from '../Event';
import type { TraceEntry, TraceViewData } from '../TraceEntry';
import type { TraceResultData } from '../TraceResult';
import { isUnnumberedRequest, isWireResponse, pairExchanges, type RpcExchange } from './pairExchanges';
import {
  LIFECYCLE_KINDS,
  projectEvaluation,
  projectLifecycle,
  projectMessage,
  projectReasoning,
  projectUsage,
} from './projectConversation';
import {
  pairProcesses,
  projectDiagnostic,
  projectInitialization,
  projectProcess,
  projectRawFrame,
  projectTransport,
} from './projectInfrastructure';
import { splitInputRounds } from './projectInputRounds';
import {
  interactionKindOf,
  isNotification,
  projectExchange,
  projectInteraction,
  projectNotification,
  projectUnmatchedResponse,
} from './projectProtocol';
import { projectRuntime } from './projectRuntime';
import { isToolCallRequest, projectToolCalls } from './projectToolCalls';
import { connectionKeyOf, isJsonObject, type ProjectionContext } from './ProjectionContext';
import { summarize } from './summarize';

const RUNTIME_KINDS: ReadonlySet<string> = new Set(Object.values(RuntimeKind));
/** Kinds consumed by tool-call correlation when an agent reports them. */
const REPORTED_TOOL_KINDS: ReadonlySet<string> = new Set([
  EventKind.TOOL_CALL_REQUESTED,
  EventKind.TOOL_RESULT_RECEIVED,
]);

/** `tools/list` responses per connection, from the paired exchanges. */
function toolListsOf(exchanges: readonly RpcExchange[]): Map<string, TraceEvent[]> {
  const lists = new Map<string, TraceEvent[]>();
  for (const { request, response } of exchanges) {
    if (response?.kind !== EventKind.MCP_RESPONSE || request.payload.method !== 'tools/list') continue;
    const key = connectionKeyOf(request);
    lists.set(key, [...(lists.get(key) ?? []), response]);
  }
  return lists;
}

function contextOf(trace: TraceResultData, exchanges: readonly RpcExchange[]): ProjectionContext {
  const created = trace.events[0]!.payload;
  const runtime =
    typeof created.runtime === 'string' && RUNTIME_KINDS.has(created.runtime) ? created.runtime : 'direct';
  const servers = Array.isArray(created.servers) ? created.servers : [];
  const only = servers.length === 1 && isJsonObject(servers[0]) ? servers[0].name : undefined;
  return {
    executionId: trace.executionId,
    runtimeKind: runtime,
    defaultServer: typeof only === 'string' ? only : null,
    events: trace.events,
    toolLists: toolListsOf(exchanges),
  };
}

/** Entries for every event that is not part of a request/response exchange. */
function projectSingleEvents(context: ProjectionContext, handled: ReadonlySet<TraceEvent>): TraceEntry[] {
  const entries: TraceEntry[] = [];
  for (const [started, exited] of pairProcesses(context.events)) entries.push(projectProcess(context, started, exited));
  for (const event of context.events) {
    if (handled.has(event)) continue;
    if (event.kind === EventKind.PROCESS_STARTED || event.kind === EventKind.PROCESS_EXITED) continue;
    if (event.origin === 'harness_reported' && REPORTED_TOOL_KINDS.has(event.kind)) continue;
    if (LIFECYCLE_KINDS.has(event.kind)) entries.push(projectLifecycle(context, event));
    else if (event.kind === EventKind.AGENT_MESSAGE || event.kind === EventKind.ASSISTANT_CONTENT) {
      entries.push(projectMessage(context, event));
    } else if (event.kind === EventKind.REASONING) entries.push(projectReasoning(context, event));
    else if (event.kind === EventKind.USAGE) entries.push(projectUsage(context, event));
    else if (event.kind === EventKind.EVALUATION_RECORDED) entries.push(projectEvaluation(context, event));
    else if (event.kind === EventKind.TRANSPORT_CONNECTED || event.kind === EventKind.TRANSPORT_DISCONNECTED) {
      entries.push(projectTransport(context, event));
    } else if (event.kind === EventKind.MCP_INITIALIZED) entries.push(projectInitialization(context, event));
    else if (isNotification(event)) entries.push(projectNotification(context, event));
    else if (event.kind === EventKind.RAW_FRAME) {
      entries.push(projectRawFrame(context, event) ?? projectDiagnostic(context, event));
    } else entries.push(projectDiagnostic(context, event));
  }
  return entries;
}

/** Entries for every request/response exchange: tool calls, interactions, other protocol pairs. */
function projectExchanges(context: ProjectionContext, all: readonly RpcExchange[]): TraceEntry[] {
  const toolExchanges: RpcExchange[] = [];
  const { rest: exchanges, rounds, roundsBefore } = splitInputRounds(context, all);
  const entries: TraceEntry[] = [...rounds];
  for (const exchange of exchanges) {
    if (isToolCallRequest(exchange.request) && exchange.request.direction !== 'server_to_client') {
      toolExchanges.push(exchange);
      continue;
    }
    const interaction = interactionKindOf(exchange.request);
    entries.push(
      interaction === undefined
        ? projectExchange(context, exchange)
        : projectInteraction(context, exchange, interaction),
    );
  }
  return [...projectToolCalls(context, toolExchanges, roundsBefore), ...entries];
}

function byPosition(a: TraceEntry, b: TraceEntry): number {
  return (
    a.sequenceStart - b.sequenceStart ||
    a.sequenceEnd - b.sequenceEnd ||
    (a.entryId < b.entryId ? -1 : a.entryId > b.entryId ? 1 : 0)
  );
}

/**
 * Projects a finalized trace into its view (contract §5). Pure and deterministic: the same events
 * always give a deep-equal view, with entry ids derived from the source event ids.
 * @throws TraceNotFinalized when the last event is not `execution.finished`
 */
export function projectTraceView(trace: TraceResultData): TraceViewData {
  const last = trace.events.at(-1);
  if (last === undefined || last.kind !== EventKind.EXECUTION_FINISHED) {
    throw new TraceNotFinalized(undefined, { executionId: trace.executionId });
  }
  if (trace.events[0]!.kind !== EventKind.EXECUTION_CREATED) {
    throw new TraceUnavailable('the first trace event must be execution.created', { executionId: trace.executionId });
  }
  const { exchanges, unmatchedResponses } = pairExchanges(trace.events);
  const context = contextOf(trace, exchanges);
  // Request-kind events the pairing could not take (no JSON-RPC id) still become entries.
  const loose = trace.events.filter(isUnnumberedRequest);
  const allExchanges = [...exchanges, ...loose.map((request): RpcExchange => ({ request }))];
  const handled = new Set<TraceEvent>();
  for (const exchange of allExchanges) {
    handled.add(exchange.request);
    if (exchange.response) handled.add(exchange.response);
  }
  for (const event of trace.events) if (isWireResponse(event)) handled.add(event);
  const frames = trace.events.filter((e) => e.kind !== EventKind.RAW_FRAME && e.rawEvidence !== undefined);
  const timeline = [
    ...projectExchanges(context, allExchanges),
    ...frames.flatMap((event) => projectRawFrame(context, event) ?? []),
    ...unmatchedResponses.map((event) => projectUnmatchedResponse(context, event)),
    ...projectSingleEvents(context, handled),
  ].sort(byPosition);
  return {
    schema: 'm3.trace_view',
    schemaVersion: 1,
    traceId: trace.traceId,
    executionId: trace.executionId,
    outcome: last.payload.outcome as ExecutionOutcome,
    completeness: trace.completeness,
    limitations: [...trace.limitations],
    runtime: projectRuntime(context.runtimeKind, trace.events, timeline),
    summary: summarize(trace.events, timeline, context.runtimeKind),
    timeline,
  };
}
