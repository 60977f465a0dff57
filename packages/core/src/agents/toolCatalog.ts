import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import type { JsonObject } from '../json';
import { isToolAllowed, type ProxyToolPolicy } from '../proxy/toolPolicy';
import type { AgentMcpConnection } from './AgentMcpConnection';

/** One MCP tool as the model sees it: a Chat Completions function mapped back to server and tool. */
export interface CatalogEntry {
  /** Function name sent to the model (`server__tool`, sanitized). */
  readonly functionName: string;
  readonly server: string;
  readonly tool: string;
  readonly connection: AgentMcpConnection;
  /** False when the tool policy denies it: then it is not offered to the model. */
  readonly allowed: boolean;
  readonly definition: Tool;
}

/** The tools of every server of an execution, by function name. */
export class ToolCatalog {
  private readonly byFunction = new Map<string, CatalogEntry>();

  /** Adds a server's tools under its policy; names are made unique and valid for the API. */
  add(connection: AgentMcpConnection, tools: readonly Tool[], policy: ProxyToolPolicy): void {
    const server = connection.server.name;
    for (const tool of tools) {
      const base = functionNameOf(server, tool.name);
      let name = base;
      for (let n = 2; this.byFunction.has(name); n++) name = `${base.slice(0, 60)}_${n}`;
      this.byFunction.set(name, {
        functionName: name,
        server,
        tool: tool.name,
        connection,
        allowed: isToolAllowed(policy, tool.name),
        definition: tool,
      });
    }
  }

  /** The entry a function name the model called stands for, if any. */
  lookup(functionName: string): CatalogEntry | undefined {
    return this.byFunction.get(functionName);
  }

  /** Allowed tools as Chat Completions function tools (denied ones are never offered). */
  offered(): ChatCompletionFunctionTool[] {
    return [...this.byFunction.values()]
      .filter((e) => e.allowed)
      .map((e) => ({
        type: 'function' as const,
        function: {
          name: e.functionName,
          ...(e.definition.description !== undefined && { description: e.definition.description }),
          parameters: (e.definition.inputSchema ?? { type: 'object' }) as JsonObject,
        },
      }));
  }
}

/** `server__tool` with characters outside `[A-Za-z0-9_-]` replaced, at most 64 characters. */
export function functionNameOf(server: string, tool: string): string {
  return `${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
}
