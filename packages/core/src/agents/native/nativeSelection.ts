import { ModelValidationError } from '../../errors';
import { parseChatEndpointUrl } from '../../endpoint/chatEndpoint';
import { isSecretRef, type SecretRef } from '../../redaction/SecretRef';

/** The agent CLIs sf-m3 drives in their own machine protocol (contract §18). */
export type NativeHarnessKind = 'claude_code' | 'codex' | 'opencode' | 'pi';

/** The native kinds, in the order the docs list them. */
export const NATIVE_HARNESS_KINDS: readonly NativeHarnessKind[] = ['claude_code', 'codex', 'opencode', 'pi'];

/** One entry of `kit.agents([...])` for a native harness. */
export interface NativeAgentSelectionSpec {
  readonly harness: NativeHarnessKind;
  /** One model, or several with `models` (one selection per model), as the CLI names them. */
  readonly model?: string;
  readonly models?: readonly string[];
  /** Name of the configuration (default: the kind); `metadata.harness_config` adds it when different. */
  readonly name?: string;
  /** The CLI to run instead of the one found on PATH: any executable file, a script with a shebang included. */
  readonly executable?: string;
  /** Variable holding the model API key (default per kind, e.g. `ANTHROPIC_API_KEY`); never copied elsewhere. */
  readonly apiKeyEnv?: string;
  /**
   * Another model endpoint, written as that API's clients take it: OpenAI-style `http://host:port/v1`,
   * Anthropic the origin without `/v1`. Plain http only for loopback hosts.
   */
  readonly baseUrl?: string;
  /** Variables given to the CLI beside the allowlisted ones; `SecretRef`s are resolved at launch. */
  readonly env?: Readonly<Record<string, string | SecretRef>>;
  /** Extra arguments after the harness's own. */
  readonly args?: readonly string[];
}

/** What a kind brings to its selections: its CLI and its defaults. */
export interface NativeHarnessDefaults {
  readonly kind: NativeHarnessKind;
  /** The executable looked up on PATH, e.g. `claude`. */
  readonly executable: string;
  /** The npm package that installs it, for the missing-executable error. */
  readonly npmPackage: string;
  /** Default `apiKeyEnv`, or null when the kind has none (Pi: from the model's provider). */
  readonly apiKeyEnv: string | null;
}

/** A validated native selection (models expanded by the caller). */
export interface ResolvedNativeSelection {
  readonly kind: NativeHarnessKind;
  readonly models: string[];
  readonly name: string | undefined;
  readonly executable: string | undefined;
  readonly apiKeyEnv: string | null;
  /** Without a trailing slash. */
  readonly baseUrl: string | undefined;
  readonly env: Record<string, string | SecretRef>;
  readonly args: string[];
}

const KEYS = new Set(['harness', 'model', 'models', 'name', 'executable', 'apiKeyEnv', 'baseUrl', 'env', 'args']);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** Validates one native selection; throws `ModelValidationError` naming the field and the fix. */
export function resolveNativeSelection(
  spec: Record<string, unknown>,
  defaults: NativeHarnessDefaults,
): ResolvedNativeSelection {
  const kind = defaults.kind;
  const fail = (message: string, option: string): never => {
    throw new ModelValidationError(`${kind} agent selection: ${message}`, { option, harness: kind });
  };
  for (const key of Object.keys(spec)) {
    if (!KEYS.has(key)) fail(`field '${key}' is unknown: use ${[...KEYS].join(', ')}`, key);
  }
  if (spec.model !== undefined && spec.models !== undefined) fail("give 'model' or 'models', not both", 'models');
  const models = spec.models !== undefined ? spec.models : spec.model !== undefined ? [spec.model] : [];
  if (!Array.isArray(models) || models.length === 0 || !models.every(nonEmpty)) {
    fail("needs models: ['<model>', ...] as the CLI names them", 'models');
  }
  if (spec.name !== undefined && !nonEmpty(spec.name)) fail('name must be a non-empty string', 'name');
  if (spec.executable !== undefined && (!nonEmpty(spec.executable) || spec.executable.length > 4096)) {
    fail("executable must be a path such as '/usr/local/bin/claude'", 'executable');
  }
  const apiKeyEnv = spec.apiKeyEnv ?? defaults.apiKeyEnv;
  if (apiKeyEnv !== null && (typeof apiKeyEnv !== 'string' || !ENV_NAME.test(apiKeyEnv))) {
    fail('apiKeyEnv must name an environment variable, e.g. ANTHROPIC_API_KEY', 'apiKeyEnv');
  }
  let baseUrl: string | undefined;
  if (spec.baseUrl !== undefined) {
    if (typeof spec.baseUrl !== 'string') fail('baseUrl must be a URL string', 'baseUrl');
    baseUrl = parseChatEndpointUrl(`${kind} agent`, spec.baseUrl as string)
      .toString()
      .replace(/\/+$/, '');
  }
  const env = spec.env ?? {};
  if (typeof env !== 'object' || env === null || Array.isArray(env)) {
    fail("env must map variable names to strings or secretFromEnv('NAME')", 'env');
  }
  for (const [name, value] of Object.entries(env as Record<string, unknown>)) {
    if (!ENV_NAME.test(name)) fail(`env name '${name}' is not a valid variable name`, 'env');
    if (typeof value !== 'string' && !isSecretRef(value))
      fail(`env.${name} must be a string or secretFromEnv('NAME')`, 'env');
  }
  const args = spec.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) fail('args must be a list of strings', 'args');
  return {
    kind,
    models: [...(models as string[])],
    name: spec.name as string | undefined,
    executable: spec.executable as string | undefined,
    apiKeyEnv: apiKeyEnv as string | null,
    baseUrl,
    env: { ...(env as Record<string, string | SecretRef>) },
    args: [...(args as string[])],
  };
}
