import { isToolAllowed, type ProxyToolPolicy } from '../../proxy/toolPolicy';
import type { NativeEventRecorder } from '../native/NativeEventRecorder';
import { CodexRpcRefusal } from './CodexRpc';
import { isObject } from '../../json';

type Params = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * Answers what Codex asks the kit (server→client requests). The harness presets MCP approvals
 * (`default_tools_approval_mode = "approve"`, `approval_policy = "never"`), so these come only when
 * a selection's `args` change that: a Codex MCP tool approval (`mcpServer/elicitation/request` with
 * `_meta.codex_approval_kind = "mcp_tool_call"`) is accepted when the run's policy allows the tool,
 * declined otherwise; an MCP server's own elicitation is declined (no one is there to answer it);
 * shell, file-change and permission approvals are declined (built-in tools are off); anything else
 * gets JSON-RPC "method not found". Each decision is a `provider.event` (`codex_approval`).
 */
export function answerCodexRequest(
  method: string,
  params: Params,
  policies: ReadonlyMap<string, ProxyToolPolicy>,
  events: NativeEventRecorder,
): unknown {
  const decide = (kind: string, decision: string, extra: Record<string, string | null> = {}) => {
    events.providerEvent('codex_approval', { method, kind, decision, ...extra });
  };
  switch (method) {
    case 'mcpServer/elicitation/request': {
      const meta = isObject(params._meta) ? params._meta : {};
      const server = str(params.serverName) ?? null;
      if (meta.codex_approval_kind === 'mcp_tool_call') {
        const tool = str(meta.tool_name) ?? null;
        const policy = server !== null ? policies.get(server) : undefined;
        const allowed = server !== null && (policy === undefined || isToolAllowed(policy, tool));
        decide('mcp_tool_call', allowed ? 'accept' : 'decline', { server, tool });
        return { action: allowed ? 'accept' : 'decline', content: null };
      }
      decide('mcp_elicitation', 'decline', { server });
      return { action: 'decline', content: null };
    }
    case 'item/commandExecution/requestApproval':
    case 'item/fileChange/requestApproval':
      decide(method.split('/')[1] ?? method, 'decline');
      return { decision: 'decline' };
    case 'execCommandApproval':
    case 'applyPatchApproval':
      decide(method, 'denied');
      return { decision: 'denied' };
    case 'item/permissions/requestApproval':
      decide('permissions', 'decline');
      return { permissions: {}, scope: 'turn' };
    default:
      throw new CodexRpcRefusal(-32601, `the sf-m3 codex harness does not answer ${method}`);
  }
}
