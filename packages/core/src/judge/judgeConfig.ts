import { ModelValidationError } from '../errors/M3Error';
import { parseChatEndpointUrl, resolveChatEndpointCredential } from '../endpoint/chatEndpoint';
import { subjectDigest } from '../evaluation/subjectDigest';

/** How the judge reply is constrained: by the provider (`json_schema`) or checked locally (`json_text`). */
export type JudgeResponseMode = 'json_schema' | 'json_text';
/** `env` reads a key from `apiKeyEnv`; `none` (loopback only) sends no Authorization header. */
export type JudgeAuth = 'env' | 'none';

/** Options of `new LLMJudge(...)` (contract §9). */
export interface LLMJudgeOptions {
  /** Chat Completions model name. */
  readonly model: string;
  /** Defaults to `https://api.openai.com/v1`; a custom one must declare `responseMode` and a credential. */
  readonly baseUrl?: string;
  /** Environment variable holding the key; default `M3_JUDGE_API_KEY` (never `OPENAI_API_KEY`). */
  readonly apiKeyEnv?: string;
  readonly auth?: JudgeAuth;
  readonly responseMode?: JudgeResponseMode;
  /** Score at or above which the verdict is `passed`; default 0.8. */
  readonly threshold?: number;
  /** Trusted grading instructions sent with every request (≤ 32 KiB). */
  readonly rubric?: string;
  readonly rubricId?: string;
  readonly rubricVersion?: string;
  /** Per-attempt timeout; default 30 000 ms, at most 600 000. */
  readonly timeoutMs?: number;
  /** Extra attempts after a 429 or 5xx answer; default 1, at most 5. */
  readonly maxRetries?: number;
}

/** A validated judge configuration (no secret values, only the key's variable name). */
export interface JudgeConfig {
  readonly model: string;
  readonly baseUrl: string;
  readonly endpointHost: string;
  readonly auth: JudgeAuth;
  readonly apiKeyEnv: string | null;
  readonly responseMode: JudgeResponseMode;
  readonly threshold: number;
  readonly rubric: string | null;
  readonly rubricId: string | null;
  readonly rubricVersion: string | null;
  readonly timeoutMs: number;
  readonly maxRetries: number;
}

/** Version of the judge prompt; part of the config digest. */
export const JUDGE_PROMPT_VERSION = 'm3-llm-judge.v1';
/** The default endpoint. */
export const DEFAULT_JUDGE_BASE_URL = 'https://api.openai.com/v1';
/** The default key variable. */
export const DEFAULT_JUDGE_API_KEY_ENV = 'M3_JUDGE_API_KEY';

/** True for `localhost`, `127.0.0.0/8` and `::1` (kept here for existing importers). */
export { isLoopbackHost } from '../endpoint/chatEndpoint';

function boundedString(field: string, value: string | undefined, max: number): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || value.trim().length === 0 || Buffer.byteLength(value, 'utf8') > max) {
    throw new ModelValidationError(`LLMJudge ${field} must be a non-blank string of at most ${max} bytes`, { field });
  }
  return value;
}

/** Validates judge options; every problem is a `ModelValidationError` naming the field and the fix. */
export function resolveJudgeConfig(options: LLMJudgeOptions): JudgeConfig {
  if (typeof options !== 'object' || options === null) {
    throw new ModelValidationError('new LLMJudge needs an options object: { model, ... }', {});
  }
  const model = boundedString('model', options.model, 256);
  if (model === null) throw new ModelValidationError('LLMJudge model must not be empty', {});
  const auth = options.auth ?? 'env';
  if (auth !== 'env' && auth !== 'none') {
    throw new ModelValidationError("LLMJudge auth must be 'env' or 'none'", {});
  }
  const custom = options.baseUrl !== undefined;
  const url = parseChatEndpointUrl('LLMJudge', options.baseUrl ?? DEFAULT_JUDGE_BASE_URL);
  const baseUrl = url.toString().replace(/\/+$/, '');
  if (
    options.responseMode !== undefined &&
    options.responseMode !== 'json_schema' &&
    options.responseMode !== 'json_text'
  ) {
    throw new ModelValidationError("LLMJudge responseMode must be 'json_schema' or 'json_text'", {});
  }
  if (custom && options.responseMode === undefined) {
    throw new ModelValidationError(
      "a custom LLMJudge baseUrl must declare responseMode: 'json_schema' (provider-enforced) or 'json_text' (checked locally)",
      { host: url.host },
    );
  }
  const { apiKeyEnv } = resolveChatEndpointCredential(
    'LLMJudge',
    url,
    custom,
    { auth, apiKeyEnv: options.apiKeyEnv },
    DEFAULT_JUDGE_API_KEY_ENV,
  );
  if (apiKeyEnv === 'M3_ACCESS_TOKEN') {
    throw new ModelValidationError('M3_ACCESS_TOKEN cannot be used as a judge credential: use M3_JUDGE_API_KEY', {});
  }
  const threshold = options.threshold ?? 0.8;
  if (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
    throw new ModelValidationError('LLMJudge threshold must be a number between 0 and 1', {});
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > 600_000) {
    throw new ModelValidationError('LLMJudge timeoutMs must be a positive number of milliseconds up to 600000', {});
  }
  const maxRetries = options.maxRetries ?? 1;
  if (!Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > 5) {
    throw new ModelValidationError('LLMJudge maxRetries must be an integer from 0 to 5', {});
  }
  return Object.freeze({
    model,
    baseUrl,
    endpointHost: url.host,
    auth,
    apiKeyEnv,
    responseMode: options.responseMode ?? 'json_schema',
    threshold,
    rubric: boundedString('rubric', options.rubric, 32 * 1024),
    rubricId: boundedString('rubricId', options.rubricId, 256),
    rubricVersion: boundedString('rubricVersion', options.rubricVersion, 128),
    timeoutMs,
    maxRetries,
  });
}

/** sha256 of the canonical JSON of the configuration and prompt version (never a key value). */
export function judgeConfigDigest(config: JudgeConfig): string {
  return subjectDigest({ ...config, promptVersion: JUDGE_PROMPT_VERSION });
}
