/** Which MCP server and tool an agent's tool call names, or a serverless (built-in) tool. */
export interface AcpToolIdentity {
  readonly server: string | null;
  readonly tool: string;
}

const MCP_PREFIXED = /^mcp__(.+?)__(.+)$/;
const BARE_TOOL_NAME = /^[A-Za-z0-9_.-]+$/;
/** Gemini CLI's title for an MCP tool: `<tool> (<server> MCP Server)`. */
const GEMINI_MCP_TITLE = /^(\S+) \((.+) MCP Server\)$/;

/**
 * The identity of a reported tool call from its title: `mcp__<server>__<tool>`, `server:tool`
 * (optionally after `MCP tool · `) or `tool (server MCP Server)` (Gemini CLI) when `server` is one of
 * this execution's servers, or a bare tool
 * name when the execution has exactly one server; anything else (a sentence such as `Read file x`,
 * an unknown server) is a serverless tool, kept under its title.
 */
export function acpToolIdentity(title: string, servers: readonly string[]): AcpToolIdentity {
  const text = title.trim().replace(/^MCP tool\s*·\s*/u, '');
  const prefixed = MCP_PREFIXED.exec(text);
  if (prefixed !== null) return { server: prefixed[1] as string, tool: prefixed[2] as string };
  const gemini = GEMINI_MCP_TITLE.exec(text);
  if (gemini !== null && servers.includes(gemini[2] as string)) {
    return { server: gemini[2] as string, tool: gemini[1] as string };
  }
  const colon = text.indexOf(':');
  if (colon > 0) {
    const server = text.slice(0, colon);
    const tool = text.slice(colon + 1).trim();
    if (servers.includes(server) && tool !== '') return { server, tool };
  }
  if (servers.length === 1 && BARE_TOOL_NAME.test(text)) return { server: servers[0] as string, tool: text };
  return { server: null, tool: text };
}
