import type { ProxyToolPolicy } from '../../proxy/toolPolicy';

/** The MCP tools of one server a native CLI may offer its model: every tool, or only these (maybe none). */
export interface NativeServerTools {
  readonly server: string;
  readonly tools: 'all' | readonly string[];
}

/**
 * The run's tool policy (contract §14 `tools`) per server, in server order, for a CLI's own allow-list.
 * The capture proxy enforces the same policy at the wire whatever the CLI does with this.
 */
export function nativeToolSelection(
  servers: readonly { name: string }[],
  policies: ReadonlyMap<string, ProxyToolPolicy>,
): NativeServerTools[] {
  return servers.map(({ name }) => {
    const policy = policies.get(name);
    return { server: name, tools: policy === undefined || policy.mode === 'allow_all' ? 'all' : [...policy.tools] };
  });
}

/** True when no server restricts its tools (the CLI needs no allow-list for MCP tools). */
export function allowsEveryTool(selection: readonly NativeServerTools[]): boolean {
  return selection.every((s) => s.tools === 'all');
}

/**
 * Splits a CLI's prefixed MCP tool name (`mcp__shipping__quote`, `shipping_quote`) into server and
 * tool: `prefix + server + separator + tool`, the longest matching server name winning (a server
 * named `a_b` beats `a` for `a_b_tool`). Undefined when no server matches (a built-in tool).
 */
export function splitPrefixedToolName(
  name: string,
  servers: readonly string[],
  prefix: string,
  separator: string,
): { server: string; tool: string } | undefined {
  if (!name.startsWith(prefix)) return undefined;
  const rest = name.slice(prefix.length);
  const match = [...servers]
    .sort((a, b) => b.length - a.length)
    .find((s) => rest.startsWith(`${s}${separator}`) && rest.length > s.length + separator.length);
  return match === undefined ? undefined : { server: match, tool: rest.slice(match.length + separator.length) };
}
