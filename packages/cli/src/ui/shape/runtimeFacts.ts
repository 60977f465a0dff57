// What an execution's trace says about who ran it, shaped for the execution view: the runtime
// kind, the agent CLI's name and version, its own session/thread id, the model, the protocol, and
// the usage the harness reported. A fact the source did not give keeps its Observation state
// (`not_emitted`, `unsupported`, …); nothing is filled in. Pure data, no DOM: bundled and unit-tested.
import type { JsonObject, Observation, TraceRuntime, UsageValue } from '@sf-m3/core';

/** One shown fact: a label and its value or the state saying why there is none. */
export interface RuntimeFact {
  /** Stable key (also the `data-fact` attribute the browser tests read). */
  key: string;
  label: string;
  obs: Observation<string>;
}

const observedText = (value: string): Observation<string> => ({ state: 'observed', value });
const NOT_EMITTED: Observation<string> = { state: 'not_emitted', value: null, reason: 'provider_did_not_emit' };

/** The same state (and reason) as `source`, carrying `value` when the source carries one. */
function like<T>(source: Observation<T>, value: string | null): Observation<string> {
  if (value === null) {
    return source.state === 'observed' ? NOT_EMITTED : { state: source.state, value: null, reason: source.reason };
  }
  return { state: source.state, value, ...(source.reason !== undefined && { reason: source.reason }) };
}

/** A field of an observed object (`agent.version`), or why it is not there. */
function fieldOf(source: Observation<JsonObject>, field: string): Observation<string> {
  if (source.value === null) return like(source, null);
  const value = source.value[field];
  return like(source, typeof value === 'string' || typeof value === 'number' ? String(value) : null);
}

/** Whatever else the agent said about itself (Codex: `modelProvider`, `sandbox`), as `key=value`; none when nothing. */
function agentDetails(agent: Observation<JsonObject>): RuntimeFact[] {
  if (agent.value === null) return [];
  const rest = Object.entries(agent.value).filter(([key]) => key !== 'name' && key !== 'version');
  if (rest.length === 0) return [];
  const text = rest.map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return [{ key: 'agentDetails', label: 'agent details', obs: like(agent, text.join(', ')) }];
}

function usageFacts(usage: Observation<UsageValue>): RuntimeFact[] {
  if (usage.value === null) return [{ key: 'usage', label: 'usage', obs: like(usage, null) }];
  const u = usage.value;
  const number = (n: number | null): Observation<string> => like(usage, n === null ? null : n.toLocaleString('en-US'));
  return [
    { key: 'inputTokens', label: 'input tokens', obs: number(u.inputTokens) },
    { key: 'outputTokens', label: 'output tokens', obs: number(u.outputTokens) },
    { key: 'reasoningTokens', label: 'reasoning tokens', obs: number(u.reasoningTokens) },
    { key: 'totalTokens', label: 'total tokens', obs: number(u.totalTokens) },
    { key: 'cost', label: 'cost', obs: like(usage, u.cost === null ? null : String(u.cost)) },
    { key: 'currency', label: 'currency', obs: like(usage, u.currency) },
  ];
}

/** The MCP revision and era the agent settled on with each server (`runtime.mcpServers`, contract §23). */
function mcpServerFacts(runtime: TraceRuntime): RuntimeFact[] {
  const servers = runtime.kind === 'direct' ? undefined : runtime.mcpServers;
  if (servers === undefined || servers.value === null) return [];
  return servers.value.map((s) => ({
    key: `mcp:${s.server}`,
    label: `MCP ${s.server}`,
    obs: like(servers, `${s.protocolVersion} (${s.era})`),
  }));
}

/**
 * The facts of a trace's runtime and its summary's usage (`summary.usage`: the latest cumulative
 * report). Agent runtimes (acp, openai, claude_code, codex, opencode, pi) list the agent, session,
 * model and protocol, and the MCP revision per server; a direct connection its transport and protocol.
 */
export function runtimeFacts(runtime: TraceRuntime, usage: Observation<UsageValue>): RuntimeFact[] {
  const facts: RuntimeFact[] = [{ key: 'kind', label: 'runtime', obs: observedText(runtime.kind) }];
  if (runtime.kind === 'direct') {
    const serverInfo: Observation<JsonObject> =
      runtime.initialization.value === null
        ? (runtime.initialization as Observation<never>)
        : { state: runtime.initialization.state, value: runtime.initialization.value.serverInfo };
    facts.push(
      { key: 'transport', label: 'transport', obs: like(runtime.transport, runtime.transport.value) },
      { key: 'protocolVersion', label: 'protocol version', obs: runtime.protocol },
      { key: 'serverName', label: 'server', obs: fieldOf(serverInfo, 'name') },
      { key: 'serverVersion', label: 'server version', obs: fieldOf(serverInfo, 'version') },
    );
  } else {
    facts.push(
      { key: 'agentName', label: 'agent', obs: fieldOf(runtime.agent, 'name') },
      { key: 'agentVersion', label: 'agent version', obs: fieldOf(runtime.agent, 'version') },
      ...agentDetails(runtime.agent),
      { key: 'sessionId', label: 'session / thread id', obs: runtime.sessionId },
      { key: 'model', label: 'model', obs: runtime.model },
      { key: 'protocolVersion', label: 'protocol version', obs: runtime.protocolVersion },
      ...mcpServerFacts(runtime),
    );
  }
  return [...facts, ...usageFacts(usage)];
}
