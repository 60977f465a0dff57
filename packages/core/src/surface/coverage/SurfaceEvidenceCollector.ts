// Turns an execution's trace events into what it saw of each server's surface (contract §25), from
// wire evidence only: the kit's own client frames (origin `normalized`) and what the capture proxy
// saw between an agent and its servers (origin `wire_observed`), never what a harness reported, so
// an agent's call is counted once. One pass, O(1) per event; list results are hashed per tool (a
// few per listing), call arguments only have their top-level keys and scalar values read.
import type { JsonObject, JsonValue } from '../../json';
import { isObject } from '../../json';
import type { TraceEvent } from '../../trace/Event';
import type {
  AdvertisedTool,
  EnumValue,
  ExecutionSurfaceEvidence,
  ServerSurfaceEvidence,
  ToolUse,
} from './SurfaceCoverage';
import { definitionHash, toolDefinitionHash } from './toolDefinitionHash';

/** Distinct scalar values kept per argument (enum values are few; free text must not grow a snapshot). */
export const MAX_VALUES_PER_PROPERTY = 64;
/** Longer strings are not kept as argument values (no enum value is this long). */
export const MAX_VALUE_CHARS = 256;

interface ToolUseDraft {
  calls: number;
  successes: number;
  readonly propertiesUsed: Set<string>;
  readonly valuesUsed: Map<string, Map<string, EnumValue>>;
}

interface ServerDraft {
  readonly listed: { tools: boolean; prompts: boolean; resources: boolean; resourceTemplates: boolean };
  readonly tools: Record<string, AdvertisedTool>;
  readonly prompts: Record<string, string>;
  readonly resources: Record<string, string>;
  readonly resourceTemplates: Record<string, string>;
  readonly history: Record<string, string[]>;
  readonly uses: Map<string, ToolUseDraft>;
  readonly promptGets: Record<string, number>;
  readonly resourceReads: Record<string, number>;
}

const LIST_METHODS: ReadonlySet<string> = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
]);

function isScalar(value: JsonValue | undefined): value is EnumValue {
  return value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string';
}

/** What a listed tool advertises: its hash, top-level properties and their enums. */
function advertisedTool(tool: JsonObject): AdvertisedTool {
  const schema = tool.inputSchema;
  const properties = isObject(schema) && isObject(schema.properties) ? (schema.properties as JsonObject) : {};
  const enums: Record<string, EnumValue[]> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (isObject(property) && Array.isArray(property.enum)) enums[name] = property.enum.filter(isScalar);
  }
  return { definitionHash: toolDefinitionHash(tool), properties: Object.keys(properties).sort(), enums };
}

/** A request retried with answers (2026-07-28 `input_required` rounds) continues a call, not a new one. */
function continuesCall(params: JsonObject): boolean {
  return params.requestState !== undefined || params.inputResponses !== undefined;
}

/**
 * Collects surface evidence from trace events as they come (`add`) or all at once
 * (`surfaceEvidenceOfEvents`); `evidence()` returns what was seen so far, per server name.
 */
export class SurfaceEvidenceCollector {
  private readonly servers = new Map<string, ServerDraft>();
  /** The tool a `tools/call` request named, by server, connection and JSON-RPC id. */
  private readonly openCalls = new Map<string, string>();

  /** Takes one trace event into account; events that are not wire evidence are ignored. */
  add(event: TraceEvent): void {
    const { server, origin, direction } = event;
    if (server === undefined || (origin !== 'normalized' && origin !== 'wire_observed')) return;
    const payload = event.payload;
    // Any wire traffic makes the server known, so a server no test listed still shows in the summary.
    if (!this.servers.has(server)) this.server(server);
    if (direction === 'client_to_server') {
      if (event.kind === 'tool.call_requested') this.callRequested(server, event, payload);
      else if (event.kind === 'mcp.request') this.requested(server, payload);
    } else if (direction === 'server_to_client') {
      if (event.kind === 'tool.result_received' || (event.kind === 'mcp.error' && payload.method === 'tools/call')) {
        this.callAnswered(server, event, payload);
      } else if (
        event.kind === 'mcp.response' &&
        typeof payload.method === 'string' &&
        LIST_METHODS.has(payload.method)
      ) {
        this.listed(server, payload.method, payload.result);
      }
    }
  }

  /** What was seen, per server name (the value stored as `snapshot.surface`). */
  evidence(): ExecutionSurfaceEvidence {
    const out: Record<string, ServerSurfaceEvidence> = {};
    for (const [name, draft] of this.servers) {
      const tools: Record<string, ToolUse> = {};
      for (const [tool, use] of draft.uses) {
        const valuesUsed: Record<string, EnumValue[]> = {};
        for (const [property, values] of use.valuesUsed) valuesUsed[property] = [...values.values()];
        tools[tool] = {
          calls: use.calls,
          successes: use.successes,
          propertiesUsed: [...use.propertiesUsed].sort(),
          valuesUsed,
        };
      }
      out[name] = {
        listed: { ...draft.listed },
        advertised: {
          tools: { ...draft.tools },
          prompts: { ...draft.prompts },
          resources: { ...draft.resources },
          resourceTemplates: { ...draft.resourceTemplates },
        },
        toolDefinitionHistory: Object.fromEntries(Object.entries(draft.history).map(([k, v]) => [k, [...v]])),
        tools,
        prompts: { ...draft.promptGets },
        resources: { ...draft.resourceReads },
      };
    }
    return out;
  }

  private server(name: string): ServerDraft {
    let draft = this.servers.get(name);
    if (draft === undefined) {
      draft = {
        listed: { tools: false, prompts: false, resources: false, resourceTemplates: false },
        tools: {},
        prompts: {},
        resources: {},
        resourceTemplates: {},
        history: {},
        uses: new Map(),
        promptGets: {},
        resourceReads: {},
      };
      this.servers.set(name, draft);
    }
    return draft;
  }

  private use(draft: ServerDraft, tool: string): ToolUseDraft {
    let use = draft.uses.get(tool);
    if (use === undefined) {
      use = { calls: 0, successes: 0, propertiesUsed: new Set(), valuesUsed: new Map() };
      draft.uses.set(tool, use);
    }
    return use;
  }

  private callRequested(server: string, event: TraceEvent, payload: JsonObject): void {
    const params = payload.params;
    if (!isObject(params) || typeof params.name !== 'string') return;
    // A call the proxy's tool policy denied never reached the server.
    if (isObject(payload.policy) && payload.policy.decision === 'denied') return;
    if (event.jsonrpcId !== undefined)
      this.openCalls.set(`${server}|${event.connectionId}|${event.jsonrpcId}`, params.name);
    if (continuesCall(params as JsonObject)) return;
    const use = this.use(this.server(server), params.name);
    use.calls += 1;
    if (!isObject(params.arguments)) return;
    for (const [property, value] of Object.entries(params.arguments as JsonObject)) {
      use.propertiesUsed.add(property);
      if (!isScalar(value) || (typeof value === 'string' && value.length > MAX_VALUE_CHARS)) continue;
      let values = use.valuesUsed.get(property);
      if (values === undefined) {
        values = new Map();
        use.valuesUsed.set(property, values);
      }
      if (values.size < MAX_VALUES_PER_PROPERTY) values.set(JSON.stringify(value), value);
    }
  }

  private callAnswered(server: string, event: TraceEvent, payload: JsonObject): void {
    const key = `${server}|${event.connectionId}|${event.jsonrpcId}`;
    const tool = this.openCalls.get(key);
    if (tool === undefined) return;
    this.openCalls.delete(key);
    if (event.kind === 'mcp.error' || payload.answeredBy === 'proxy') return;
    const result = payload.result;
    if (!isObject(result) || result.isError === true || result.resultType === 'input_required') return;
    this.use(this.server(server), tool).successes += 1;
  }

  private requested(server: string, payload: JsonObject): void {
    const params = payload.params;
    if (!isObject(params)) return;
    if (payload.method === 'prompts/get' && typeof params.name === 'string' && !continuesCall(params as JsonObject)) {
      const gets = this.server(server).promptGets;
      gets[params.name] = (gets[params.name] ?? 0) + 1;
    } else if (
      payload.method === 'resources/read' &&
      typeof params.uri === 'string' &&
      !continuesCall(params as JsonObject)
    ) {
      const reads = this.server(server).resourceReads;
      reads[params.uri] = (reads[params.uri] ?? 0) + 1;
    }
  }

  private listed(server: string, method: string, result: JsonValue | undefined): void {
    if (!isObject(result)) return;
    const draft = this.server(server);
    switch (method) {
      case 'tools/list':
        if (!Array.isArray(result.tools)) return;
        draft.listed.tools = true;
        for (const tool of result.tools) {
          if (!isObject(tool) || typeof tool.name !== 'string') continue;
          const advertised = advertisedTool(tool as JsonObject);
          draft.tools[tool.name] = advertised;
          const history = (draft.history[tool.name] ??= []);
          // Relisting the same definition adds nothing; only a change is worth a new entry.
          if (history.at(-1) !== advertised.definitionHash) history.push(advertised.definitionHash);
        }
        return;
      case 'prompts/list':
        if (!Array.isArray(result.prompts)) return;
        draft.listed.prompts = true;
        for (const prompt of result.prompts) {
          if (isObject(prompt) && typeof prompt.name === 'string')
            draft.prompts[prompt.name] = definitionHash(prompt as JsonObject);
        }
        return;
      case 'resources/list':
        if (!Array.isArray(result.resources)) return;
        draft.listed.resources = true;
        for (const resource of result.resources) {
          if (isObject(resource) && typeof resource.uri === 'string')
            draft.resources[resource.uri] = definitionHash(resource as JsonObject);
        }
        return;
      default:
        if (!Array.isArray(result.resourceTemplates)) return;
        draft.listed.resourceTemplates = true;
        for (const template of result.resourceTemplates) {
          if (isObject(template) && typeof template.uriTemplate === 'string') {
            draft.resourceTemplates[template.uriTemplate] = definitionHash(template as JsonObject);
          }
        }
    }
  }
}

/** What an execution's events show of each server's surface (contract §25). */
export function surfaceEvidenceOfEvents(events: Iterable<TraceEvent>): ExecutionSurfaceEvidence {
  const collector = new SurfaceEvidenceCollector();
  for (const event of events) collector.add(event);
  return collector.evidence();
}
