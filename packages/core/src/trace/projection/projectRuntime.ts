import { TransportKind } from '../../enums';
import type { JsonObject } from '../../json';
import { EventKind, type TraceEvent } from '../Event';
import { notEmitted, observed, unavailable, unsupported, type Observation } from '../Observation';
import type { AgentServerProtocol, InitializationValue, TraceEntry, TraceRuntime, UsageValue } from '../TraceEntry';
import { isJsonObject, stringField } from './ProjectionContext';
import { summaryUsage } from './summarize';

const TRANSPORTS: ReadonlySet<string> = new Set(Object.values(TransportKind));
const NATIVE_KINDS: ReadonlySet<string> = new Set(['claude_code', 'codex', 'opencode', 'pi']);

function initializationOf(event: TraceEvent | undefined): Observation<InitializationValue> {
  if (event === undefined) return notEmitted();
  const p = event.payload;
  if (typeof p.protocolVersion !== 'string' || !isJsonObject(p.serverInfo) || !isJsonObject(p.capabilities)) {
    return unavailable('malformed_source');
  }
  return observed({
    protocolVersion: p.protocolVersion,
    serverInfo: p.serverInfo,
    capabilities: p.capabilities,
    instructions: typeof p.instructions === 'string' ? p.instructions : null,
  });
}

/** What a direct connection can report: its transport and the observed initialization. */
function directRuntime(events: readonly TraceEvent[]): TraceRuntime {
  const connected = events.find((e) => e.kind === EventKind.TRANSPORT_CONNECTED);
  const transport = connected ? stringField(connected.payload, 'transport') : undefined;
  const initialization = initializationOf(events.find((e) => e.kind === EventKind.MCP_INITIALIZED));
  return {
    kind: 'direct',
    transport:
      connected === undefined
        ? notEmitted()
        : transport !== undefined && TRANSPORTS.has(transport)
          ? observed(transport as TransportKind)
          : unavailable('malformed_source'),
    protocol:
      initialization.state === 'observed'
        ? observed(initialization.value!.protocolVersion)
        : (initialization as Observation<never>),
    initialization,
  };
}

/**
 * The revision and era of each server the capture layer saw the agent settle on (its wire
 * `mcp.initialized` events, the latest per server), or undefined when there is none.
 */
function agentServerProtocols(events: readonly TraceEvent[]): Observation<AgentServerProtocol[]> | undefined {
  const byServer = new Map<string, AgentServerProtocol>();
  for (const e of events) {
    if (e.kind !== EventKind.MCP_INITIALIZED || e.origin !== 'wire_observed' || e.server === undefined) continue;
    const protocolVersion = stringField(e.payload, 'protocolVersion');
    const era = stringField(e.payload, 'era');
    if (protocolVersion !== undefined && era !== undefined) {
      byServer.set(e.server, { server: e.server, protocolVersion, era });
    }
  }
  return byServer.size === 0 ? undefined : observed([...byServer.values()]);
}

/** What an agent harness reported about its session, model and usage. */
function agentRuntime(
  kind: Exclude<TraceRuntime['kind'], 'direct'>,
  events: readonly TraceEvent[],
  timeline: readonly TraceEntry[],
): TraceRuntime {
  const session = events.find((e) => e.kind === EventKind.SESSION_CREATED)?.payload;
  const text = (value: unknown): Observation<string> => (typeof value === 'string' ? observed(value) : notEmitted());
  const agent: Observation<JsonObject> =
    session && isJsonObject(session.agent) ? observed(session.agent) : notEmitted();
  const protocolVersion: Observation<string> =
    kind === 'acp' || session?.protocolVersion !== undefined
      ? text(session?.protocolVersion)
      : unsupported('harness_unsupported');
  const usage: Observation<UsageValue> = summaryUsage(timeline, kind);
  const mcpServers = agentServerProtocols(events);
  return {
    kind,
    // A native CLI's own session/thread id; ACP and openai report the kit's session.
    sessionId: text(NATIVE_KINDS.has(kind) ? (session?.agentSessionId ?? session?.sessionId) : session?.sessionId),
    protocolVersion,
    agent,
    model: text(session?.model),
    usage,
    ...(mcpServers !== undefined && { mcpServers }),
  };
}

/** The runtime section of a view, by the runtime kind `execution.created` names. */
export function projectRuntime(
  runtimeKind: string,
  events: readonly TraceEvent[],
  timeline: readonly TraceEntry[],
): TraceRuntime {
  if (runtimeKind === 'direct') return directRuntime(events);
  return agentRuntime(runtimeKind as Exclude<TraceRuntime['kind'], 'direct'>, events, timeline);
}
