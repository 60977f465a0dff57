import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  PI_TOOL_CALL_META_KEY,
  type PiBridgeConfig,
  type PiMcpServerDescriptor,
  type PiServerToolSelection,
  type PiToolMapping,
} from './piBridgeConfig';
import { piToolNames } from './piToolNames';

/** One MCP tool as the extension registers it with Pi. */
export interface BridgedTool extends PiToolMapping {
  readonly title: string;
  readonly description: string;
  /** The MCP input schema (JSON Schema; Pi validates arguments against it). */
  readonly inputSchema: Record<string, unknown>;
}

/** The MCP servers of one Pi process, connected through the kit's capture proxies. */
export interface PiMcpBridge {
  readonly tools: readonly BridgedTool[];
  readonly errors: ReadonlyArray<{ server: string; message: string }>;
  /** Calls a tool by its Pi name, with Pi's toolCallId in `_meta` (`pi/toolCallId`). */
  call(name: string, args: unknown, toolCallId: string, signal?: AbortSignal): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Bound on connecting and listing one server; the session's own deadline bounds tool calls. */
const CONNECT_TIMEOUT_MS = 30_000;
/** The SDK's per-request timeout would cut a slow tool at 60 s; the kit's deadline is the bound. */
const CALL_TIMEOUT_MS = 2_147_483_647;

function transportFor(server: PiMcpServerDescriptor): Transport {
  if ('type' in server) {
    const headers = Object.fromEntries(server.headers.map((h) => [h.name, h.value]));
    return new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } });
  }
  return new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: Object.fromEntries(server.env.map((e) => [e.name, e.value])),
    stderr: 'inherit',
  });
}

async function listAll(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: CONNECT_TIMEOUT_MS });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined && tools.length < 10_000);
  return tools;
}

/** The input schema Pi can compile: `$schema` dropped (Pi's validator does not need it). */
function piSchema(tool: Tool): Record<string, unknown> {
  const { $schema: _drop, ...schema } = tool.inputSchema as Record<string, unknown>;
  return { ...schema, type: 'object' };
}

const allowedBy = (selection: PiServerToolSelection | undefined, tool: string): boolean =>
  selection === undefined || selection.tools === 'all' || selection.tools.includes(tool);

/**
 * Connects to every server of `config` (a server that fails is reported in `errors`, the others
 * still serve), lists their tools, keeps the ones the run allows, and names them for Pi.
 */
export async function openPiMcpBridge(config: PiBridgeConfig): Promise<PiMcpBridge> {
  const clients = new Map<string, Client>();
  const errors: Array<{ server: string; message: string }> = [];
  const found: Array<{ server: string; tool: Tool }> = [];
  for (const server of config.servers) {
    const client = new Client({ name: 'sf-m3-pi-bridge', version: '0.1.0' });
    try {
      await client.connect(transportFor(server), { timeout: CONNECT_TIMEOUT_MS });
      clients.set(server.name, client);
      const selection = config.tools.find((t) => t.server === server.name);
      for (const tool of await listAll(client)) {
        if (allowedBy(selection, tool.name)) found.push({ server: server.name, tool });
      }
    } catch (error) {
      errors.push({ server: server.name, message: error instanceof Error ? error.message : String(error) });
    }
  }
  const names = piToolNames(found.map((f) => ({ server: f.server, tool: f.tool.name })));
  const tools: BridgedTool[] = found.map((f, i) => ({
    name: names[i] as string,
    server: f.server,
    tool: f.tool.name,
    title: f.tool.title ?? f.tool.annotations?.title ?? f.tool.name,
    description: f.tool.description ?? `MCP tool ${f.tool.name} of server ${f.server}`,
    inputSchema: piSchema(f.tool),
  }));
  const byName = new Map(tools.map((t) => [t.name, t]));
  return {
    tools,
    errors,
    async call(name, args, toolCallId, signal) {
      const tool = byName.get(name);
      const client = tool === undefined ? undefined : clients.get(tool.server);
      if (tool === undefined || client === undefined) throw new Error(`no MCP tool is registered as ${name}`);
      const result = await client.callTool(
        {
          name: tool.tool,
          arguments: (args ?? {}) as Record<string, unknown>,
          _meta: { [PI_TOOL_CALL_META_KEY]: toolCallId },
        },
        undefined,
        { timeout: CALL_TIMEOUT_MS, ...(signal !== undefined && { signal }) },
      );
      return result as CallToolResult;
    },
    async close() {
      await Promise.all([...clients.values()].map((c) => c.close().catch(() => undefined)));
    },
  };
}
