import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ModelValidationError } from '../../errors';
import { isLoopbackHost } from '../../endpoint/chatEndpoint';
import type { AgentMcpServerDescriptor } from '../wire/AgentServerGroup';
import type { NativeLaunchDirs, NativeLaunchExtras, NativeModelRoute } from '../native/nativeLaunch';
import type { NativeServerTools } from '../native/nativeToolSelection';
import type { ResolvedNativeSelection } from '../native/nativeSelection';

/** Claude Code's prefix of MCP tool names: `mcp__<server>__<tool>`. */
export const CLAUDE_MCP_PREFIX = 'mcp__';
export const CLAUDE_MCP_SEPARATOR = '__';

/**
 * The key given to the API key variable when the kit's environment has none and the model endpoint
 * is loopback (a fake model needs no real key). Never used for another host.
 */
export const LOOPBACK_PLACEHOLDER_KEY = 'sk-ant-m3-loopback-placeholder';

/** Switches that keep Claude Code offline apart from the model endpoint. */
export const CLAUDE_SWITCHES: Readonly<Record<string, string>> = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
};

/**
 * The name Claude Code uses for a server inside tool names (characters other than letters, digits,
 * `_` and `-` become `_`), per server; throws when two servers would share one.
 */
export function claudeServerKeys(servers: readonly string[]): Map<string, string> {
  const keys = new Map<string, string>();
  const owners = new Map<string, string>();
  for (const server of servers) {
    const key = server.replace(/[^A-Za-z0-9_-]/g, '_');
    const other = owners.get(key);
    if (other !== undefined) {
      throw new ModelValidationError(
        `servers '${other}' and '${server}' both appear to Claude Code as '${key}' (mcp__${key}__<tool>): rename one of them`,
        { harness: 'claude_code', server },
      );
    }
    owners.set(key, server);
    keys.set(server, key);
  }
  return keys;
}

/** The `--mcp-config` document for the capture proxies' descriptors. */
export function claudeMcpConfig(
  descriptors: readonly AgentMcpServerDescriptor[],
  keys: ReadonlyMap<string, string>,
): { mcpServers: Record<string, unknown> } {
  const mcpServers: Record<string, unknown> = {};
  for (const d of descriptors) {
    const key = keys.get(d.name) ?? d.name;
    mcpServers[key] =
      'type' in d
        ? { type: 'http', url: d.url, headers: Object.fromEntries(d.headers.map((h) => [h.name, h.value])) }
        : {
            type: 'stdio',
            command: d.command,
            args: d.args,
            env: Object.fromEntries(d.env.map((e) => [e.name, e.value])),
          };
  }
  return { mcpServers };
}

/**
 * `--allowedTools` entries for the run's tool policy: `mcp__<server>__*` for a server whose tools
 * are all allowed, `mcp__<server>__<tool>` per allowed tool. With `--permission-mode dontAsk`
 * every other tool call is refused by the CLI itself (it never reaches the wire).
 */
export function claudeAllowedTools(
  selection: readonly NativeServerTools[],
  keys: ReadonlyMap<string, string>,
): string[] {
  return selection.flatMap(({ server, tools }) => {
    const key = keys.get(server) ?? server;
    return tools === 'all'
      ? [`${CLAUDE_MCP_PREFIX}${key}${CLAUDE_MCP_SEPARATOR}*`]
      : tools.map((t) => `mcp__${key}__${t}`);
  });
}

/**
 * The API key given to the CLI: the kit's (or, in cassette mode `replay`, the replay placeholder),
 * else a placeholder for a loopback endpoint; throws otherwise. The loopback rule looks at the
 * selection's own `baseUrl`, never at a cassette proxy's (itself loopback, forwarding to Anthropic).
 */
export function claudeApiKey(selection: ResolvedNativeSelection, apiKey: string | undefined): string {
  if (apiKey !== undefined) return apiKey;
  if (selection.baseUrl !== undefined && isLoopbackHost(new URL(selection.baseUrl).hostname)) {
    return LOOPBACK_PLACEHOLDER_KEY;
  }
  const variable = selection.apiKeyEnv ?? 'ANTHROPIC_API_KEY';
  throw new ModelValidationError(
    `the claude_code harness needs the model API key in ${variable}, which is not set: export it, or name another variable with apiKeyEnv`,
    { harness: 'claude_code', env: variable },
  );
}

/** What the driver passes to `prepareNativeLaunch`: writes the MCP config (0600) and returns arguments and switches. */
export async function claudeLaunchExtras(
  dirs: NativeLaunchDirs,
  input: {
    readonly selection: ResolvedNativeSelection;
    readonly model: string;
    readonly apiKey: string;
    readonly descriptors: readonly AgentMcpServerDescriptor[];
    readonly tools: readonly NativeServerTools[];
    readonly keys: ReadonlyMap<string, string>;
    /** The cassette channel's proxy (contract §24): `ANTHROPIC_BASE_URL` in place of the selection's. */
    readonly route?: NativeModelRoute;
  },
): Promise<NativeLaunchExtras> {
  const mcpConfigPath = join(dirs.configDir, 'mcp-config.json');
  const config = claudeMcpConfig(input.descriptors, input.keys);
  await writeFile(mcpConfigPath, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  const allowed = claudeAllowedTools(input.tools, input.keys);
  // Every option taking several values (`--mcp-config`, `--tools`, `--allowedTools`) is followed by
  // another option, so none swallows the next argument; `--model` comes last before the selection's args.
  const args = [
    '-p',
    '--input-format',
    'stream-json',
    '--output-format',
    'stream-json',
    '--verbose',
    '--strict-mcp-config',
    '--mcp-config',
    mcpConfigPath,
    '--tools',
    '',
    ...(allowed.length > 0 ? ['--allowedTools', allowed.join(',')] : []),
    '--permission-mode',
    'dontAsk',
    '--model',
    input.model,
  ];
  const baseUrl = input.route?.baseUrl ?? input.selection.baseUrl;
  const env: Record<string, string> = {
    ...CLAUDE_SWITCHES,
    CLAUDE_CONFIG_DIR: dirs.configDir,
    ANTHROPIC_API_KEY: input.apiKey,
    ...(baseUrl !== undefined && { ANTHROPIC_BASE_URL: baseUrl.replace(/\/+$/, '') }),
  };
  return { args, env };
}
