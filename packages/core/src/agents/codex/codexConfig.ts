import { ModelValidationError } from '../../errors';
import type { NativeServerTools } from '../native/nativeToolSelection';
import type { AgentMcpServerDescriptor } from '../wire/AgentServerGroup';

/** The model provider entry the harness writes (Codex's own `openai` entry is never used). */
export const CODEX_PROVIDER_ID = 'm3';
/** OpenAI's endpoint, when the selection gives no `baseUrl`. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * Codex features switched off: built-in tools that are not MCP (shell, unified exec, web and image
 * tools, goals, skills, plugins, apps, browser and computer use, sub-agents), hooks, and startup
 * extras. `code_mode_host` stays on: models whose catalog entry runs in code mode (gpt-5.6) reach
 * MCP tools only through it.
 */
export const CODEX_FEATURES_OFF = [
  'shell_tool',
  'unified_exec',
  'shell_snapshot',
  'apps',
  'plugins',
  'remote_plugin',
  'goals',
  'view_image',
  'image_generation',
  'skill_search',
  'skill_mcp_dependency_install',
  'tool_suggest',
  'sleep_tool',
  'browser_use',
  'computer_use',
  'in_app_browser',
  'hooks',
  'memories',
  'daemon_auto_start',
] as const;

/** What goes into `CODEX_HOME/config.toml`. */
export interface CodexConfigInput {
  readonly model: string;
  /** OpenAI-style, e.g. `http://127.0.0.1:4000/v1` (no trailing slash). */
  readonly baseUrl: string;
  /** The variable Codex reads the key from (`env_key`), or undefined when there is no key. */
  readonly apiKeyEnv: string | undefined;
  /** The capture proxies, in server order. */
  readonly servers: readonly AgentMcpServerDescriptor[];
  /** The run's tool policy per server (`enabled_tools` when restricted). */
  readonly tools: readonly NativeServerTools[];
}

const SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** A TOML basic string (JSON escapes are valid TOML escapes for what JSON.stringify emits). */
export function tomlString(value: string): string {
  // JSON.stringify leaves U+007F and U+2028/9 raw; TOML allows them except DEL, which is escaped.
  return JSON.stringify(value).replace(/\u007f/g, '\\u007F');
}

const tomlArray = (values: readonly string[]): string => `[${values.map(tomlString).join(', ')}]`;
const tomlInlineTable = (entries: ReadonlyArray<{ name: string; value: string }>): string =>
  `{ ${entries.map((e) => `${tomlString(e.name)} = ${tomlString(e.value)}`).join(', ')} }`;

/** `[mcp_servers."<name>"]` for one capture proxy, with the native allow-list when the run restricts tools. */
function serverTable(server: AgentMcpServerDescriptor, tools: NativeServerTools | undefined): string[] {
  if (!SERVER_NAME.test(server.name)) {
    throw new ModelValidationError(
      `the codex harness cannot name MCP server '${server.name}' in its config: use letters, digits, '_' or '-' (at most 64)`,
      { server: server.name, harness: 'codex' },
    );
  }
  const lines = [`[mcp_servers.${tomlString(server.name)}]`];
  if ('command' in server) {
    lines.push(`command = ${tomlString(server.command)}`, `args = ${tomlArray(server.args)}`);
    if (server.env.length > 0) lines.push(`env = ${tomlInlineTable(server.env)}`);
  } else {
    lines.push(`url = ${tomlString(server.url)}`);
    if (server.headers.length > 0) lines.push(`http_headers = ${tomlInlineTable(server.headers)}`);
  }
  lines.push('required = true', 'startup_timeout_sec = 30', 'default_tools_approval_mode = "approve"');
  if (tools !== undefined && tools.tools !== 'all') lines.push(`enabled_tools = ${tomlArray(tools.tools)}`);
  return lines;
}

/**
 * The whole `config.toml`: the model and the `m3` provider (Responses API, retries off, the key
 * read from `env_key`, never written here), no update check, analytics, history, feedback or
 * built-in non-MCP tools, web search disabled, a read-only sandbox, and one `[mcp_servers]` table
 * per capture proxy with approvals preset and the native tool allow-list.
 * @throws ModelValidationError when a server name cannot be a Codex server name.
 */
export function codexConfigToml(input: CodexConfigInput): string {
  const lines = [
    '# Written by sf-m3 for one execution; removed with its temp root.',
    `model = ${tomlString(input.model)}`,
    `model_provider = ${tomlString(CODEX_PROVIDER_ID)}`,
    'check_for_update_on_startup = false',
    'sandbox_mode = "read-only"',
    'approval_policy = "never"',
    'web_search = "disabled"',
    'hide_agent_reasoning = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
    '[history]',
    'persistence = "none"',
    '',
    '[agents]',
    'enabled = false',
    '',
    '[features]',
    ...CODEX_FEATURES_OFF.map((f) => `${f} = false`),
    '',
    `[model_providers.${CODEX_PROVIDER_ID}]`,
    'name = "sf-m3"',
    `base_url = ${tomlString(input.baseUrl)}`,
    'wire_api = "responses"',
    ...(input.apiKeyEnv !== undefined ? [`env_key = ${tomlString(input.apiKeyEnv)}`] : []),
    'request_max_retries = 0',
    'stream_max_retries = 0',
  ];
  input.servers.forEach((server) => {
    lines.push(
      '',
      ...serverTable(
        server,
        input.tools.find((t) => t.server === server.name),
      ),
    );
  });
  return `${lines.join('\n')}\n`;
}
