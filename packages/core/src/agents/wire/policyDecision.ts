import { dirname, join } from 'node:path';
import type { JsonObject, JsonValue } from '../../json';
import { captureProxyScriptPath } from '../../proxy/buildProxyCommand';
import type { ProxyToolPolicy } from '../../proxy/toolPolicy';
import type { WirePolicyVerdict } from './WireEventWriter';

/** A verdict on one `tools/call`, with the tool it names. */
export interface ToolCallVerdict extends WirePolicyVerdict {
  readonly tool: string | null;
}

/** What `proxy/toolPolicyCheck.js` returns for one server's policy. */
interface ScriptToolPolicyCheck {
  decide(message: unknown): ToolCallVerdict | null;
  denialError(message: { id: JsonValue }, verdict: ToolCallVerdict): JsonObject;
}

/** The exports of `proxy/toolPolicyCheck.js`. */
interface ToolPolicyCheckModule {
  createToolPolicyCheck(policy: ProxyToolPolicy, serverName: string): ScriptToolPolicyCheck;
}

// The stdio capture proxy's own rule and denial, required by path: the plain CommonJS file is shipped
// as is in `proxy/` (outside `src/`), at the same relative place from `src/` and the built `dist/`.
// One source for both proxies, so the HTTP reverse proxy cannot drift from the stdio one.
const script = require(join(dirname(captureProxyScriptPath), 'toolPolicyCheck.js')) as ToolPolicyCheckModule;

/** One check per policy object (the script builds its allowlist set once). */
const checks = new WeakMap<ProxyToolPolicy, ScriptToolPolicyCheck>();

/** The denial of a verdict depends only on the server, not on the policy that gave it. */
const ANY_POLICY: ProxyToolPolicy = { mode: 'allow_all' };

/**
 * The policy verdict on one JSON-RPC message, or undefined when it is not a `tools/call`: the
 * capture proxy's rule (`proxy/toolPolicyCheck.js`).
 */
export function judgeToolCall(policy: ProxyToolPolicy, message: unknown): ToolCallVerdict | undefined {
  let check = checks.get(policy);
  if (check === undefined) {
    check = script.createToolPolicyCheck(policy, '');
    checks.set(policy, check);
  }
  return check.decide(message) ?? undefined;
}

/** The JSON-RPC error that answers a denied call: the capture proxy's own (byte-identical). */
export function denialResponse(server: string, id: JsonValue, verdict: ToolCallVerdict): JsonObject {
  return script.createToolPolicyCheck(ANY_POLICY, server).denialError({ id }, verdict);
}
