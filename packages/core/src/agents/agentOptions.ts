import { ModelValidationError, UnsupportedFeature } from '../errors';
import { parseChatEndpointUrl, resolveChatEndpointCredential } from '../endpoint/chatEndpoint';
import { normalizeToolPolicy, type ProxyToolPolicy } from '../proxy/toolPolicy';
import type { SpecEvaluation } from '../kit/DirectSpec';
import { isServerDefinition, type ServerDefinition } from '../servers/ServerDefinition';
import type { AcpAgentSelectionSpec } from './acp/acpOptions';
import type { NativeAgentSelectionSpec } from './native/nativeSelection';

export type { AcpAgentSelectionSpec, AcpFileSystemHandlers, AcpManifest } from './acp/acpOptions';
export type { NativeAgentSelectionSpec, NativeHarnessKind } from './native/nativeSelection';

/** One entry of `kit.agents([...])` for the `openai` harness. */
export interface OpenAIAgentSelectionSpec {
  readonly harness: 'openai';
  /** One model, or several with `models` (one selection per model). */
  readonly model?: string;
  readonly models?: readonly string[];
  /** Chat Completions base URL (default `https://api.openai.com/v1`). */
  readonly baseUrl?: string;
  /** Environment variable holding the key (default `OPENAI_API_KEY`). */
  readonly apiKeyEnv?: string;
  /** `'none'` sends no key; loopback endpoints only. */
  readonly auth?: 'env' | 'none';
  /** Model rounds per turn before the turn fails (default 8). */
  readonly maxRounds?: number;
}

/** What `kit.agents` accepts; other harness kinds are named so the error can say which. */
export type AgentSelectionSpec =
  | OpenAIAgentSelectionSpec
  | AcpAgentSelectionSpec
  | NativeAgentSelectionSpec
  | { readonly harness: string; readonly [key: string]: unknown };

/** Options of `agent.run` and `agent.session`. */
export interface AgentRunOptions {
  /** The MCP servers the agent may use (at least one). */
  readonly servers: readonly ServerDefinition[];
  /** Omitted allows every tool, `[]` denies all, `server:tool` names allow only those. */
  readonly tools?: readonly string[];
  /** Deadline of the whole execution in ms (default 180 000). */
  readonly timeoutMs?: number;
  /** Logical case id (default: the kit's). */
  readonly caseId?: string;
  /**
   * Evaluations the execution must produce (`required: true`): recorded on the execution, so one
   * that never arrives counts as missing in aggregation (contract §8), as for a `DirectSpec`.
   */
  readonly evaluations?: readonly SpecEvaluation[];
}

/** A validated `openai` endpoint configuration (never holds the key itself). */
export interface OpenAIEndpoint {
  readonly baseUrl: string;
  readonly host: string;
  readonly auth: 'env' | 'none';
  readonly apiKeyEnv: string | null;
  readonly maxRounds: number;
}

/** Default Chat Completions endpoint of the `openai` harness. */
export const DEFAULT_AGENT_BASE_URL = 'https://api.openai.com/v1';
/** Default key variable of the `openai` harness. */
export const DEFAULT_AGENT_API_KEY_ENV = 'OPENAI_API_KEY';
/** Default agent execution deadline (contract §6). */
export const DEFAULT_AGENT_TIMEOUT_MS = 180_000;
/** Default model rounds per turn. */
export const DEFAULT_MAX_ROUNDS = 8;

/** Validates one `openai` selection: its models and its endpoint. */
export function resolveOpenAISelection(spec: AgentSelectionSpec): { models: string[]; endpoint: OpenAIEndpoint } {
  if (typeof spec !== 'object' || spec === null) {
    throw new ModelValidationError("kit.agents needs selections such as { harness: 'openai', model: 'gpt-4o-mini' }");
  }
  if (spec.harness !== 'openai') {
    throw new UnsupportedFeature(
      `resolveOpenAISelection takes an 'openai' selection, not '${String(spec.harness)}': kit.agents resolves each kind itself`,
      { harness: String(spec.harness) },
    );
  }
  const s = spec as OpenAIAgentSelectionSpec;
  const models = s.models !== undefined ? [...s.models] : s.model !== undefined ? [s.model] : [];
  if (s.model !== undefined && s.models !== undefined) {
    throw new ModelValidationError("an agent selection takes 'model' or 'models', not both");
  }
  if (models.length === 0 || models.some((m) => typeof m !== 'string' || m.trim() === '')) {
    throw new ModelValidationError("an openai agent selection needs model: '<name>' or models: ['<name>', ...]");
  }
  const auth = s.auth ?? 'env';
  if (auth !== 'env' && auth !== 'none') throw new ModelValidationError("agent auth must be 'env' or 'none'");
  const custom = s.baseUrl !== undefined;
  const url = parseChatEndpointUrl('agent', s.baseUrl ?? DEFAULT_AGENT_BASE_URL);
  const { apiKeyEnv } = resolveChatEndpointCredential(
    'agent',
    url,
    custom,
    { auth, apiKeyEnv: s.apiKeyEnv },
    DEFAULT_AGENT_API_KEY_ENV,
  );
  const maxRounds = s.maxRounds ?? DEFAULT_MAX_ROUNDS;
  if (!Number.isInteger(maxRounds) || maxRounds < 1 || maxRounds > 100) {
    throw new ModelValidationError('agent maxRounds must be a whole number from 1 to 100');
  }
  return {
    models,
    endpoint: { baseUrl: url.toString().replace(/\/+$/, ''), host: url.host, auth, apiKeyEnv, maxRounds },
  };
}

/** Validated run/session options: servers, per-server tool policies, deadline, case id. */
export interface ResolvedRunOptions {
  readonly servers: ServerDefinition[];
  readonly policies: Map<string, ProxyToolPolicy>;
  readonly timeoutMs: number;
  readonly caseId: string | undefined;
  /** Names of the evaluators the execution must produce. */
  readonly requiredEvaluators: string[];
}

/** Checks `agent.run`/`agent.session` options; throws `ModelValidationError` naming the fix. */
export function resolveRunOptions(options: AgentRunOptions, defaultTimeoutMs?: number): ResolvedRunOptions {
  if (typeof options !== 'object' || options === null || !Array.isArray(options.servers)) {
    throw new ModelValidationError('agent.run/session needs options { servers: [server, ...] }');
  }
  const servers = [...options.servers];
  if (servers.length === 0 || !servers.every(isServerDefinition)) {
    throw new ModelValidationError('agent servers must be StdioServer, HTTPServer or InProcessServer definitions');
  }
  const names = servers.map((s) => s.name);
  if (new Set(names).size !== names.length) {
    throw new ModelValidationError('agent servers must have distinct names: rename one of them');
  }
  const policies = new Map(servers.map((s) => [s.name, normalizeToolPolicy(s.name, options.tools, names)]));
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
    throw new ModelValidationError('agent timeoutMs must be a positive whole number of milliseconds');
  }
  if (options.caseId !== undefined && (typeof options.caseId !== 'string' || options.caseId.trim() === '')) {
    throw new ModelValidationError('agent caseId must be a non-empty string');
  }
  const evaluations = options.evaluations ?? [];
  if (!Array.isArray(evaluations) || evaluations.some((e) => typeof e?.name !== 'string' || e.name.trim() === '')) {
    throw new ModelValidationError('agent evaluations must be a list of { name, required? }');
  }
  const requiredEvaluators = [...new Set(evaluations.filter((e) => e.required === true).map((e) => e.name))];
  return { servers, policies, timeoutMs, caseId: options.caseId, requiredEvaluators };
}
