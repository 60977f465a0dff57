// What the driver tells the Pi extension (and the protocol fixture) through one environment
// variable, and what the extension reports back over Pi's RPC stream. No secret is in either: the
// capture proxies hold the servers' credentials; descriptors only point at the proxies.

/** The variable holding the JSON `PiBridgeConfig`. */
export const PI_BRIDGE_CONFIG_ENV = 'M3_PI_MCP_CONFIG';

/** `statusKey` of the `setStatus` extension UI request that carries the `PiBridgeStatus`. */
export const PI_BRIDGE_STATUS_KEY = 'sf-m3';

/** The `tools/call` `_meta` key holding Pi's toolCallId (the trace correlates wire and reported calls by it). */
export const PI_TOOL_CALL_META_KEY = 'pi/toolCallId';

/** An MCP server as the capture layer describes it (stdio proxy command, or loopback HTTP proxy). */
export type PiMcpServerDescriptor =
  | { name: string; command: string; args: string[]; env: Array<{ name: string; value: string }> }
  | { type: 'http'; name: string; url: string; headers: Array<{ name: string; value: string }> };

/** The MCP tools of one server the extension registers: every tool, or only these. */
export interface PiServerToolSelection {
  readonly server: string;
  readonly tools: 'all' | readonly string[];
}

/** `M3_PI_MCP_CONFIG`. */
export interface PiBridgeConfig {
  readonly schemaVersion: 1;
  readonly servers: readonly PiMcpServerDescriptor[];
  /** Per server; a server missing here has every tool registered. */
  readonly tools: readonly PiServerToolSelection[];
}

/** One MCP tool registered as a Pi tool. */
export interface PiToolMapping {
  /** The Pi tool name (`mcp_<server>_<tool>`, bounded). */
  readonly name: string;
  readonly server: string;
  readonly tool: string;
}

/** What the extension reports once it has connected (the `setStatus` text, as JSON). */
export interface PiBridgeStatus {
  readonly schemaVersion: 1;
  /** Pi's version, from the package of the running CLI (null when not found). */
  readonly piVersion: string | null;
  readonly tools: readonly PiToolMapping[];
  /** Servers that could not be connected or listed. */
  readonly errors: ReadonlyArray<{ readonly server: string; readonly message: string }>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads `M3_PI_MCP_CONFIG`; throws naming the variable when it is missing or not a config. */
export function readPiBridgeConfig(env: NodeJS.ProcessEnv = process.env): PiBridgeConfig {
  const raw = env[PI_BRIDGE_CONFIG_ENV];
  if (raw === undefined || raw === '') return { schemaVersion: 1, servers: [], tools: [] };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new Error(`${PI_BRIDGE_CONFIG_ENV} is not JSON: the sf-m3 pi harness writes it; do not set it by hand`);
  }
  if (!isObject(value) || value.schemaVersion !== 1 || !Array.isArray(value.servers) || !Array.isArray(value.tools)) {
    throw new Error(`${PI_BRIDGE_CONFIG_ENV} is not a schemaVersion 1 config with servers and tools`);
  }
  return value as unknown as PiBridgeConfig;
}

/** Parses a `setStatus` text as a `PiBridgeStatus`, or undefined when it is not one. */
export function parsePiBridgeStatus(text: unknown): PiBridgeStatus | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (!isObject(value) || value.schemaVersion !== 1 || !Array.isArray(value.tools) || !Array.isArray(value.errors)) {
      return undefined;
    }
    return value as unknown as PiBridgeStatus;
  } catch {
    return undefined;
  }
}
