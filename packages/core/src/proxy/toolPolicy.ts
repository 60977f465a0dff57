import { ModelValidationError } from '../errors/M3Error';

/**
 * The tool policy of one proxied server, normalized for the capture proxy: every tool allowed, or
 * only the listed (unqualified) tool names of that server. An empty list denies every call.
 */
export type ProxyToolPolicy = { readonly mode: 'allow_all' } | { readonly mode: 'allowlist'; readonly tools: string[] };

/** A `server:tool` name split into its parts. */
export interface QualifiedToolName {
  readonly server: string;
  readonly tool: string;
}

/** Splits `server:tool` at the first colon; throws when either side is empty or there is no colon. */
export function parseQualifiedToolName(name: string): QualifiedToolName {
  const colon = typeof name === 'string' ? name.indexOf(':') : -1;
  if (colon <= 0 || colon === name.length - 1) {
    throw new ModelValidationError(
      `tool policy entry ${JSON.stringify(name)} is not qualified: write it as '<server>:<tool>' (e.g. 'shipping:quote'), or omit tools to allow every tool`,
      { entry: typeof name === 'string' ? name : String(name) },
    );
  }
  return { server: name.slice(0, colon), tool: name.slice(colon + 1) };
}

/**
 * Turns a test's `tools` option into the policy of one server: omitted allows all, `[]` denies all,
 * `server:tool` names allow only those tools on that server (names for other servers are skipped).
 * With `knownServers`, a name for a server that is not in the test throws (it is surely a typo).
 */
export function normalizeToolPolicy(
  serverName: string,
  tools: readonly string[] | undefined,
  knownServers?: readonly string[],
): ProxyToolPolicy {
  if (tools === undefined) return { mode: 'allow_all' };
  if (!Array.isArray(tools)) {
    throw new ModelValidationError("tools must be an array of 'server:tool' names: pass [] to deny every tool");
  }
  const allowed = new Set<string>();
  for (const entry of tools) {
    const { server, tool } = parseQualifiedToolName(entry);
    if (knownServers !== undefined && !knownServers.includes(server)) {
      throw new ModelValidationError(
        `tool policy entry '${entry}' names server '${server}', which is not one of this test's servers (${knownServers.join(', ')}): fix the server name`,
        { entry, server },
      );
    }
    if (server === serverName) allowed.add(tool);
  }
  return { mode: 'allowlist', tools: [...allowed].sort() };
}

/** True when the policy lets a `tools/call` for `tool` through (the proxy applies the same rule). */
export function isToolAllowed(policy: ProxyToolPolicy, tool: string | null | undefined): boolean {
  if (policy.mode === 'allow_all') return true;
  return typeof tool === 'string' && policy.tools.includes(tool);
}
