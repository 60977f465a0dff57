import { isJsonObject } from './LintableTool';
import { toolDescriptor } from './toolDescriptor';
import type { ToolListing } from './ToolListing';

/**
 * Every `tools/list` response in a trace's events, oldest first, as listings (a paged listing gives
 * one per page). The trace holds redacted copies, so these are compared with each other only.
 */
export function traceToolListings(events: readonly unknown[]): ToolListing[] {
  const out: ToolListing[] = [];
  for (const event of events) {
    if (!isJsonObject(event) || event.kind !== 'mcp.response' || !isJsonObject(event.payload)) continue;
    if (event.payload.method !== 'tools/list' || !isJsonObject(event.payload.result)) continue;
    const tools = event.payload.result.tools;
    if (!Array.isArray(tools)) continue;
    const descriptors = new Map<string, string>();
    for (const tool of tools) {
      if (isJsonObject(tool) && typeof tool.name === 'string') descriptors.set(tool.name, toolDescriptor(tool));
    }
    out.push({ source: `tools/list response ${out.length + 1} in this client's trace`, descriptors });
  }
  return out;
}
