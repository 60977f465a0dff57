import type { JsonObject, JsonValue } from '../../json';
import type { ProxyToolPolicy } from '../../proxy/toolPolicy';
import type { WirePolicyVerdict } from './WireEventWriter';

/** JSON-RPC error code of a `tools/call` the test's tool policy denied (as the stdio proxy answers). */
export const POLICY_DENIED_CODE = -32001;

/** A verdict on one `tools/call`, with the tool it names. */
export interface ToolCallVerdict extends WirePolicyVerdict {
  readonly tool: string | null;
}

/**
 * The policy verdict on one JSON-RPC message, or undefined when it is not a `tools/call`. The same
 * rule and reasons as `proxy/mcp-capture-proxy.js`.
 */
export function judgeToolCall(policy: ProxyToolPolicy, message: unknown): ToolCallVerdict | undefined {
  if (typeof message !== 'object' || message === null || (message as { method?: unknown }).method !== 'tools/call') {
    return undefined;
  }
  const params = (message as { params?: unknown }).params;
  const name = typeof params === 'object' && params !== null ? (params as { name?: unknown }).name : undefined;
  const tool = typeof name === 'string' ? name : null;
  if (policy.mode === 'allow_all') return { tool, decision: 'allowed', reason: 'all tools allowed' };
  if (tool !== null && policy.tools.includes(tool)) return { tool, decision: 'allowed', reason: 'in allowlist' };
  const reason = policy.tools.length === 0 ? 'every tool is denied' : 'not in the allowlist';
  return { tool, decision: 'denied', reason };
}

/** The JSON-RPC error that answers a denied call (byte-compatible with the stdio proxy's). */
export function denialResponse(server: string, id: JsonValue, verdict: ToolCallVerdict): JsonObject {
  const name = verdict.tool === null ? '(unnamed)' : `'${server}:${verdict.tool}'`;
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: POLICY_DENIED_CODE,
      message: `MCP tool call ${name} was denied by this test's tool policy (${verdict.reason})`,
      data: { server, tool: verdict.tool, reason: verdict.reason },
    },
  };
}
