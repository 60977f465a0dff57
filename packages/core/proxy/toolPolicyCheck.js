// The test's tool policy at the wire: which `tools/call` messages go on, and the error a denied one
// gets. The rule itself is normalized once in src/proxy/toolPolicy.ts; here only set membership.
// Plain CommonJS, Node built-ins only (see mcp-capture-proxy.js).
'use strict';

const POLICY_DENIED_CODE = -32001;

/** Checks messages against `toolPolicy` ({mode:'allow_all'} or {mode:'allowlist', tools}) of `serverName`. */
function createToolPolicyCheck(toolPolicy, serverName) {
  const allowlist = toolPolicy.mode === 'allowlist' ? new Set(toolPolicy.tools) : null;
  return {
    /** The policy as the `start` record states it. */
    summary: allowlist === null ? { mode: 'allow_all' } : { mode: 'allowlist', tools: [...allowlist] },

    /** The decision for one message, or null when it is not a tools/call. */
    decide(m) {
      if (!m || typeof m !== 'object' || m.method !== 'tools/call') return null;
      const tool = m.params && typeof m.params.name === 'string' ? m.params.name : null;
      if (allowlist === null) return { tool, decision: 'allowed', reason: 'all tools allowed' };
      if (tool !== null && allowlist.has(tool)) return { tool, decision: 'allowed', reason: 'in allowlist' };
      const reason = allowlist.size === 0 ? 'every tool is denied' : 'not in the allowlist';
      return { tool, decision: 'denied', reason };
    },

    /** The JSON-RPC error answering the denied request `m`. */
    denialError(m, d) {
      const name = d.tool === null ? '(unnamed)' : `'${serverName}:${d.tool}'`;
      return {
        jsonrpc: '2.0',
        id: m.id,
        error: {
          code: POLICY_DENIED_CODE,
          message: `MCP tool call ${name} was denied by this test's tool policy (${d.reason})`,
          data: { server: serverName, tool: d.tool, reason: d.reason },
        },
      };
    },
  };
}

module.exports = { createToolPolicyCheck };
