import { isJsonObject } from './LintableTool';
import { toolDescriptor } from './toolDescriptor';
import type { ToolListing } from './ToolListing';

/** Where the worker's memory lives: a registry symbol, so Jest's outer realm and the test sandbox share it. */
export const TOOL_LISTING_MEMORY: unique symbol = Symbol.for('sf-m3.tool-listings') as never;

const MAX_SERVERS = 200;
const MAX_TOOLS_PER_SERVER = 1_000;
const MAX_VARIANTS_PER_TOOL = 8;

interface Variant {
  readonly descriptor: string;
  readonly source: string;
}

/**
 * The tool listings this process has seen, per server name (contract §25 `silent_redefinition`):
 * for each tool, its distinct descriptors (description and schemas) with where each was first seen.
 * Bounded; it holds only what servers listed, never arguments or results.
 */
export class ToolListingMemory {
  private readonly servers = new Map<string, Map<string, Variant[]>>();

  /** Remembers one listing of `server`; `source` says where it was seen (`execution exe-...`). */
  remember(server: string, tools: readonly unknown[], source: string): void {
    let byTool = this.servers.get(server);
    if (byTool === undefined) {
      if (this.servers.size >= MAX_SERVERS) return;
      byTool = new Map();
      this.servers.set(server, byTool);
    }
    for (const tool of tools) {
      if (!isJsonObject(tool) || typeof tool.name !== 'string') continue;
      let variants = byTool.get(tool.name);
      if (variants === undefined) {
        if (byTool.size >= MAX_TOOLS_PER_SERVER) continue;
        variants = [];
        byTool.set(tool.name, variants);
      }
      const descriptor = toolDescriptor(tool);
      if (variants.length < MAX_VARIANTS_PER_TOOL && !variants.some((v) => v.descriptor === descriptor)) {
        variants.push({ descriptor, source });
      }
    }
  }

  /** Every remembered variant of `server`'s tools, one single-tool listing each, oldest first. */
  listings(server: string): ToolListing[] {
    const out: ToolListing[] = [];
    for (const [name, variants] of this.servers.get(server) ?? []) {
      for (const v of variants) {
        out.push({
          source: `a listing of server ${JSON.stringify(server)} in ${v.source}`,
          descriptors: new Map([[name, v.descriptor]]),
        });
      }
    }
    return out;
  }

  /** Forgets everything (tests). */
  clear(): void {
    this.servers.clear();
  }
}

/**
 * The process's memory: the one on `globalThis` (in a Jest sandbox, the worker-wide one the sf-m3
 * environment put there), else a new one stored there.
 */
export function toolListingMemory(): ToolListingMemory {
  const holder = globalThis as { [TOOL_LISTING_MEMORY]?: ToolListingMemory };
  holder[TOOL_LISTING_MEMORY] ??= new ToolListingMemory();
  return holder[TOOL_LISTING_MEMORY];
}
