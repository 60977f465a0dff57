// The `tools/list` catalogs a run observed, per (suite, server). They live in each execution's
// trace as `mcp.response` events whose payload names the method `tools/list` and holds the result
// page; pages of one connection are joined in order (a paginated listing is one catalog). Only the
// run's executions are read, one trace at a time, and only their tools/list responses are kept.
import { EventKind } from '@sf-m3/core/internal';
import type { ExecutionRecord, JsonObject, TraceEvent } from '@sf-m3/core';
import type { SummaryStore } from '../../summary/collectRunFacts';

/** The tools one server listed in one suite, by name (the first definition seen wins). */
export interface ToolCatalog {
  suiteName: string | null;
  server: string;
  tools: Map<string, JsonObject>;
}

/** A run's catalogs keyed by `catalogKey`. */
export type ToolCatalogs = Map<string, ToolCatalog>;

/** The key two runs' catalogs are matched by. */
export function catalogKey(suiteName: string | null, server: string): string {
  return JSON.stringify([suiteName, server]);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The tools of every `tools/list` response in `events`, per server, pages of a connection joined. */
export function listedTools(events: readonly TraceEvent[]): Map<string, JsonObject[]> {
  const byServer = new Map<string, JsonObject[]>();
  for (const event of events) {
    if (event.kind !== EventKind.MCP_RESPONSE || event.payload.method !== 'tools/list') continue;
    const result = event.payload.result;
    // A bounded payload that was summarized instead of kept has no tools array: nothing to compare.
    if (!isObject(result) || !Array.isArray(result.tools)) continue;
    const server = event.server ?? '(unnamed server)';
    const tools = byServer.get(server) ?? [];
    for (const tool of result.tools) if (isObject(tool) && typeof tool.name === 'string') tools.push(tool);
    byServer.set(server, tools);
  }
  return byServer;
}

function addTools(catalogs: ToolCatalogs, execution: ExecutionRecord, listed: Map<string, JsonObject[]>): void {
  for (const [server, tools] of listed) {
    const key = catalogKey(execution.suiteName, server);
    const catalog = catalogs.get(key) ?? { suiteName: execution.suiteName, server, tools: new Map() };
    for (const tool of tools) {
      const name = tool.name as string;
      if (!catalog.tools.has(name)) catalog.tools.set(name, tool);
    }
    catalogs.set(key, catalog);
  }
}

/** Reads the catalogs every execution of `runId` observed. Executions without a readable trace are skipped. */
export async function collectToolCatalogs(
  store: Pick<SummaryStore, 'listExecutions' | 'getTrace'>,
  runId: string,
): Promise<ToolCatalogs> {
  const catalogs: ToolCatalogs = new Map();
  const executions = (await store.listExecutions({ runId })).filter((e) => e.finishedAt !== null);
  for (const execution of executions) {
    let events: readonly TraceEvent[];
    try {
      events = (await store.getTrace(execution.executionId)).events;
    } catch {
      continue; // TraceUnavailable: an interrupted execution left no trace to read
    }
    addTools(catalogs, execution, listedTools(events));
  }
  return catalogs;
}
