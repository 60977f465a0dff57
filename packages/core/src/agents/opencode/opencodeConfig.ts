import { ModelValidationError } from '../../errors';
import type { JsonObject } from '../../json';
import type { NativeServerTools } from '../native/nativeToolSelection';
import type { AgentMcpServerDescriptor } from '../wire/AgentServerGroup';

/** A model as OpenCode names it: `providerID/modelID` (`opencode/big-pickle`). */
export interface OpencodeModelRef {
  readonly providerID: string;
  readonly modelID: string;
}

/** Splits `provider/model` at the first slash; throws naming the fix for anything else. */
export function parseOpencodeModel(model: string): OpencodeModelRef {
  const slash = model.indexOf('/');
  if (slash <= 0 || slash === model.length - 1) {
    throw new ModelValidationError(
      `opencode agent selection: model '${model}' is not 'provider/model': name it as OpenCode does, e.g. 'opencode/big-pickle'`,
      { option: 'models', harness: 'opencode' },
    );
  }
  return { providerID: model.slice(0, slash), modelID: model.slice(slash + 1) };
}

/**
 * Switches that keep OpenCode offline and to itself: no auto-update, no models.dev fetch, no
 * sharing, no LSP downloads, no Claude Code / external skills / project config, no external or
 * default plugins, and npm offline (OpenCode 1.18 installs `@opencode-ai/plugin` into every
 * config folder in the background; offline, that install fails at once instead of downloading).
 */
export const OPENCODE_SWITCHES: Readonly<Record<string, string>> = {
  OPENCODE_DISABLE_AUTOUPDATE: '1',
  OPENCODE_DISABLE_MODELS_FETCH: '1',
  OPENCODE_DISABLE_SHARE: '1',
  OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  OPENCODE_DISABLE_CLAUDE_CODE: '1',
  OPENCODE_DISABLE_EXTERNAL_SKILLS: '1',
  OPENCODE_DISABLE_PROJECT_CONFIG: '1',
  OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
  OPENCODE_PURE: '1',
  npm_config_offline: 'true',
};

/** A server or tool name as OpenCode puts it in a tool name: anything but `[A-Za-z0-9_-]` becomes `_`. */
export function opencodeName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/**
 * OpenCode's `tools` map for the run's policy: every tool off (`*`, the built-ins bash, edit,
 * read, webfetch... included), then each server's MCP tools (OpenCode names them
 * `<server>_<tool>`, both sanitized by `opencodeName`) on: `<server>_*` for a server with every tool, else one entry per allowed
 * tool, after a `<server>_*: false` so a shorter server's wildcard does not turn them on. Shorter
 * server names come first so longer (more specific) entries follow them.
 */
export function opencodeToolMap(selection: readonly NativeServerTools[]): Record<string, boolean> {
  const map: Record<string, boolean> = { '*': false };
  const ordered = [...selection].sort((a, b) => a.server.length - b.server.length);
  for (const { server, tools } of ordered) {
    const prefix = opencodeName(server);
    if (tools === 'all') {
      map[`${prefix}_*`] = true;
      continue;
    }
    map[`${prefix}_*`] = false;
    for (const tool of tools) map[`${prefix}_${opencodeName(tool)}`] = true;
  }
  return map;
}

/** The `mcp` entry of one capture-proxy descriptor: a local command, or a remote URL (OAuth off). */
function mcpEntry(descriptor: AgentMcpServerDescriptor): JsonObject {
  if ('type' in descriptor) {
    return {
      type: 'remote',
      url: descriptor.url,
      headers: Object.fromEntries(descriptor.headers.map((h) => [h.name, h.value])),
      oauth: false,
      enabled: true,
    };
  }
  return {
    type: 'local',
    command: [descriptor.command, ...descriptor.args],
    environment: Object.fromEntries(descriptor.env.map((e) => [e.name, e.value])),
    enabled: true,
  };
}

/** What the config file is made of. */
export interface OpencodeConfigInput {
  readonly model: OpencodeModelRef;
  /** The selection's `baseUrl` (`http://host:port/v1`), or undefined to keep the provider's own. */
  readonly baseUrl: string | undefined;
  /**
   * The cassette channel's proxy (contract §24), in place of the endpoint: with a `baseUrl` the
   * OpenAI-compatible provider points at it; without one the built-in provider's `baseURL` does.
   */
  readonly proxyUrl?: string;
  /** A key for a built-in provider behind the proxy (the replay placeholder), written as is. */
  readonly proxyKey?: string;
  /** The variable the child gets the key in; the config refers to it as `{env:NAME}`, never the value. */
  readonly apiKeyEnv: string | null;
  readonly servers: readonly AgentMcpServerDescriptor[];
  readonly tools: readonly NativeServerTools[];
}

/**
 * The `OPENCODE_CONFIG` file: auto-update, sharing, snapshots, LSP and formatters off; with a
 * `baseUrl`, the model's provider as an OpenAI-compatible (Chat Completions) provider at that URL
 * with the key as an `{env:NAME}` substitution and the model listed; the capture proxies as `mcp`
 * servers; the `tools` and `permission` maps of the run's policy (built-in tools off).
 */
export function opencodeConfig(input: OpencodeConfigInput): JsonObject {
  const { providerID, modelID } = input.model;
  const tools = opencodeToolMap(input.tools);
  const permission = Object.fromEntries(Object.entries(tools).map(([k, on]) => [k, on ? 'allow' : 'deny']));
  const provider: JsonObject =
    input.baseUrl === undefined
      ? input.proxyUrl === undefined
        ? {}
        : {
            [providerID]: {
              options: {
                baseURL: input.proxyUrl,
                ...(input.proxyKey !== undefined && { apiKey: input.proxyKey }),
              },
            },
          }
      : {
          [providerID]: {
            npm: '@ai-sdk/openai-compatible',
            name: providerID,
            options: {
              baseURL: input.proxyUrl ?? input.baseUrl,
              ...(input.apiKeyEnv !== null && { apiKey: `{env:${input.apiKeyEnv}}` }),
            },
            models: { [modelID]: { name: modelID, tool_call: true } },
          },
        };
  return {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    snapshot: false,
    lsp: false,
    formatter: false,
    model: `${providerID}/${modelID}`,
    provider,
    mcp: Object.fromEntries(input.servers.map((d) => [d.name, mcpEntry(d)])),
    tools,
    permission,
  };
}
