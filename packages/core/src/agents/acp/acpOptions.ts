import { ModelValidationError } from '../../errors';
import { isSecretRef, type SecretRef } from '../../redaction/SecretRef';

/** How to launch an ACP agent: a command (absolute path or found on PATH, no shell), its args and env. */
export interface AcpManifest {
  readonly command: string;
  readonly args?: readonly string[];
  /** Variables given to the agent beside the allowlisted ones; `SecretRef`s are resolved at launch. */
  readonly env?: Readonly<Record<string, string | SecretRef>>;
}

/**
 * Handlers for the agent's `fs/*` requests. Without one the request is refused with a JSON-RPC
 * error naming this option; paths are the agent's (absolute, usually under the temp workspace).
 */
export interface AcpFileSystemHandlers {
  readonly readTextFile?: (path: string) => string | Promise<string>;
  readonly writeTextFile?: (path: string, content: string) => void | Promise<void>;
}

/** One entry of `kit.agents([...])` for the `acp` harness. */
export interface AcpAgentSelectionSpec {
  readonly harness: 'acp';
  readonly manifest: AcpManifest;
  /** Labels only (never sent to the agent): one selection per model. */
  readonly model?: string;
  readonly models?: readonly string[];
  /** Name of the configuration (default `acp`); `metadata.harness_config` adds it when different. */
  readonly name?: string;
  /** `session/set_mode` after `session/new`; the agent must advertise the mode. */
  readonly agentModeId?: string;
  /** `session/set_config_option` per key after `session/new`; each must be advertised. */
  readonly sessionConfig?: Readonly<Record<string, string | boolean>>;
  /** Answers `fs/read_text_file` / `fs/write_text_file` (refused without it). */
  readonly fileSystem?: AcpFileSystemHandlers;
}

/** A validated `acp` selection (models expanded by the caller). */
export interface ResolvedAcpSelection {
  readonly models: string[];
  readonly name: string | undefined;
  readonly manifest: { command: string; args: string[]; env: Record<string, string | SecretRef> };
  readonly agentModeId: string | undefined;
  readonly sessionConfig: Record<string, string | boolean>;
  readonly fileSystem: AcpFileSystemHandlers;
}

const KEYS = new Set(['harness', 'manifest', 'model', 'models', 'name', 'agentModeId', 'sessionConfig', 'fileSystem']);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

function fail(message: string, option: string): never {
  throw new ModelValidationError(message, { option });
}

function checkManifest(value: unknown): ResolvedAcpSelection['manifest'] {
  const example = "manifest: { command: '/path/to/agent', args: ['--acp'] }";
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(`an acp agent selection needs ${example}`, 'manifest');
  }
  const m = value as Record<string, unknown>;
  for (const key of Object.keys(m)) {
    if (!['command', 'args', 'env'].includes(key))
      fail(`acp manifest field '${key}' is unknown: use command, args, env`, 'manifest');
  }
  if (!nonEmpty(m.command) || m.command.length > 1000)
    fail(`acp manifest.command must be a non-empty string: ${example}`, 'manifest.command');
  const args = m.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string'))
    fail('acp manifest.args must be a list of strings', 'manifest.args');
  const env = m.env ?? {};
  if (typeof env !== 'object' || env === null || Array.isArray(env)) {
    fail("acp manifest.env must map variable names to strings or secretFromEnv('NAME')", 'manifest.env');
  }
  for (const [name, v] of Object.entries(env as Record<string, unknown>)) {
    if (!ENV_NAME.test(name)) fail(`acp manifest.env name '${name}' is not a valid variable name`, 'manifest.env');
    if (typeof v !== 'string' && !isSecretRef(v)) {
      fail(`acp manifest.env.${name} must be a string or secretFromEnv('NAME')`, 'manifest.env');
    }
  }
  return { command: m.command, args: [...(args as string[])], env: { ...(env as Record<string, string | SecretRef>) } };
}

/** Validates one `acp` selection; throws `ModelValidationError` naming the field and the fix. */
export function resolveAcpSelection(spec: Record<string, unknown>): ResolvedAcpSelection {
  for (const key of Object.keys(spec)) {
    if (!KEYS.has(key)) fail(`acp agent selection field '${key}' is unknown: use ${[...KEYS].join(', ')}`, key);
  }
  const manifest = checkManifest(spec.manifest);
  if (spec.model !== undefined && spec.models !== undefined)
    fail("an agent selection takes 'model' or 'models', not both", 'models');
  const models = spec.models !== undefined ? spec.models : spec.model !== undefined ? [spec.model] : [];
  if (!Array.isArray(models) || models.length === 0 || !models.every(nonEmpty)) {
    fail("an acp agent selection needs models: ['<label>', ...] (labels only, never sent to the agent)", 'models');
  }
  if (spec.name !== undefined && !nonEmpty(spec.name)) fail('acp selection name must be a non-empty string', 'name');
  if (spec.agentModeId !== undefined && !nonEmpty(spec.agentModeId))
    fail('acp agentModeId must be a non-empty string', 'agentModeId');
  const config = spec.sessionConfig ?? {};
  if (
    typeof config !== 'object' ||
    config === null ||
    Array.isArray(config) ||
    !Object.values(config).every((v) => typeof v === 'string' || typeof v === 'boolean')
  ) {
    fail('acp sessionConfig must map config option ids to strings or booleans', 'sessionConfig');
  }
  const fs = spec.fileSystem ?? {};
  if (typeof fs !== 'object' || fs === null)
    fail('acp fileSystem must be { readTextFile?, writeTextFile? }', 'fileSystem');
  const handlers = fs as Record<string, unknown>;
  for (const key of Object.keys(handlers)) {
    if (!['readTextFile', 'writeTextFile'].includes(key) || typeof handlers[key] !== 'function') {
      fail(`acp fileSystem.${key} must be one of readTextFile / writeTextFile, as a function`, 'fileSystem');
    }
  }
  return {
    models: [...(models as string[])],
    name: spec.name as string | undefined,
    manifest,
    agentModeId: spec.agentModeId as string | undefined,
    sessionConfig: { ...(config as Record<string, string | boolean>) },
    fileSystem: handlers as AcpFileSystemHandlers,
  };
}
