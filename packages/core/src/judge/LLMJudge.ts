import type OpenAI from 'openai';
import type { APIError } from 'openai';
import type { CassetteUse } from '../cassettes/CassetteMode';
import type { CassetteChannel, CassetteScope } from '../cassettes/CassetteScope';
import { judgeChannelKey } from '../cassettes/clients/cassetteChannelKey';
import { keyOrReplayPlaceholder } from '../cassettes/clients/cassetteReplayKey';
import type { EvaluationStatus } from '../enums';
import { chatEndpointFetch } from '../endpoint/chatEndpoint';
import type { EvaluationMetrics } from '../evaluation/EvaluationResult';
import type { JsonObject } from '../json';
import { Redactor } from '../redaction/Redactor';
import type { JudgeBudget } from './budget/JudgeBudget';
import { JudgeErrorCode } from './JudgeErrorCode';
import {
  JUDGE_PROMPT_VERSION,
  judgeConfigDigest,
  resolveJudgeConfig,
  type JudgeConfig,
  type LLMJudgeOptions,
} from './judgeConfig';
import { parseJudgeReply } from './judgeReply';
import { buildJudgeRequest, checkJudgeSubject } from './judgeRequest';

/** The `openai` package, required on first use rather than when sf-m3 is imported. */
function loadOpenAI(): typeof import('openai') {
  return require('openai') as typeof import('openai');
}

/** Options of one `judge()` call. */
export interface JudgeCallOptions {
  /** Redacts the rationale and messages (default: a new redactor with the key as canary). */
  readonly redactor?: Redactor;
  /** The run's judge budget: a call past it is an `error` verdict `judge_budget_exhausted`, never sent. */
  readonly budget?: JudgeBudget | null;
  /**
   * The running test's cassettes (`kit.cassettes`, contract §24): the request goes through the
   * channel `judge <model>`; in mode `replay` it needs no key, and a request with no recorded
   * answer is an `error` verdict `cassette_miss`.
   */
  readonly cassette?: CassetteScope | null;
}

/** A judge's verdict, ready to be saved as an evaluation. */
export interface JudgeVerdict {
  readonly status: EvaluationStatus;
  readonly score: number | null;
  readonly rationale: string | null;
  readonly metrics: EvaluationMetrics;
  /** Model, endpoint host, response mode, rubric, threshold, request id, latency, usage; never the key. */
  readonly provenance: JsonObject;
  /** Set when `status` is `error`. */
  readonly errorCode: JudgeErrorCode | null;
}

interface Usage {
  promptTokens: number | null;
  completionTokens: number | null;
  totalTokens: number | null;
}

interface CallFacts {
  requestId: string | null;
  attempts: number;
  usage: Usage | null;
  returnedModel: string | null;
  /** How the cassette served the call, when it went through one. */
  cassette: CassetteUse | null;
}

const MAX_BACKOFF_MS = 2000;
const MESSAGE_CHARS = 300;
/** A cassette miss keeps its whole (already bounded) message: the diff and the re-record command. */
const MISS_MESSAGE_CHARS = 4000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isRetryable(status: number | undefined): boolean {
  return status === 429 || (status !== undefined && status >= 500);
}

function backoffMs(error: APIError, attempt: number): number {
  const retryAfter = Number(error.headers?.get?.('retry-after'));
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return Math.min(retryAfter * 1000, MAX_BACKOFF_MS);
  return Math.min(200 * 2 ** attempt, MAX_BACKOFF_MS);
}

/** The system error code (ECONNREFUSED...) under a connection error, if any. */
function networkCode(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

function toUsage(raw: unknown): Usage | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const u = raw as Record<string, unknown>;
  const count = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null);
  return {
    promptTokens: count(u.prompt_tokens),
    completionTokens: count(u.completion_tokens),
    totalTokens: count(u.total_tokens),
  };
}

/**
 * An LLM judge on the OpenAI Chat Completions API (contract §9). It grades `{ input, expected, actual }`
 * against its rubric and turns the reply into a verdict. Every failure becomes an `error` verdict with
 * a stable `JudgeErrorCode`; `judge()` never throws for provider, credential or reply problems.
 */
export class LLMJudge {
  /** The validated configuration (holds the key's variable name, never its value). */
  readonly config: JudgeConfig;
  /** sha256 of the configuration: one evaluator name may only be used with one digest. */
  readonly configDigest: string;

  constructor(options: LLMJudgeOptions) {
    this.config = resolveJudgeConfig(options);
    this.configDigest = judgeConfigDigest(this.config);
    Object.freeze(this);
  }

  /** The model graded with. */
  get model(): string {
    return this.config.model;
  }

  /** The rubric id, or null. */
  get rubricId(): string | null {
    return this.config.rubricId;
  }

  /** Registers the judge's API key (if set) as a redaction canary in `redactor`. */
  addCanaries(redactor: Redactor): void {
    if (this.config.apiKeyEnv) redactor.addCanary(process.env[this.config.apiKeyEnv]);
  }

  /**
   * Grades a subject `{ input, expected, actual }` (strings). Resolves to `passed` when the score is at or
   * above the threshold, `failed` below it, or `error` with a `JudgeErrorCode`.
   */
  async judge(subject: unknown, options: JudgeCallOptions = {}): Promise<JudgeVerdict> {
    const redactor = options.redactor ?? new Redactor();
    this.addCanaries(redactor);
    const cassette = options.cassette?.mode === 'off' ? null : (options.cassette ?? null);
    let channel: CassetteChannel | null = null;
    try {
      return await this.grade(subject, options, redactor, cassette, (opened) => (channel = opened));
    } finally {
      await (channel as CassetteChannel | null)?.close().catch(() => undefined);
    }
  }

  private async grade(
    subject: unknown,
    options: JudgeCallOptions,
    redactor: Redactor,
    cassette: CassetteScope | null,
    opened: (channel: CassetteChannel) => void,
  ): Promise<JudgeVerdict> {
    const started = Date.now();
    const facts: CallFacts = { requestId: null, attempts: 0, usage: null, returnedModel: null, cassette: null };
    const fail = (code: JudgeErrorCode, message: string, chars = MESSAGE_CHARS): JudgeVerdict =>
      this.verdict('error', null, redactor.redactText(message).slice(0, chars), facts, started, code);

    const checked = checkJudgeSubject(subject, this.config.rubric !== null);
    if (!checked.ok) return fail(JudgeErrorCode.INPUT_INVALID, `${checked.problem}; nothing was sent to the judge`);
    let apiKey: string | null = null;
    if (this.config.apiKeyEnv !== null) {
      // In cassette mode replay an unset key is the placeholder: the channel never forwards it.
      apiKey = keyOrReplayPlaceholder(process.env[this.config.apiKeyEnv], cassette?.mode ?? null) ?? '';
      if (apiKey.trim().length === 0) {
        return fail(
          JudgeErrorCode.CREDENTIAL_MISSING,
          `missing judge credential: set the environment variable ${this.config.apiKeyEnv} (or use auth: 'none' for a loopback endpoint); nothing was sent`,
        );
      }
    }
    // Reserved last, so a call that could never be sent does not spend the run's budget.
    if (options.budget && !(await options.budget.reserve())) {
      return fail(
        JudgeErrorCode.BUDGET_EXHAUSTED,
        `the run's judge budget of ${options.budget.limit} request(s) is spent (m3 test --judge-max-requests ${options.budget.limit}); nothing was sent`,
      );
    }
    // The OpenAI SDK is loaded here, on the first judgement, so importing sf-m3 stays light.
    const { APIConnectionError, APIConnectionTimeoutError, APIError } = loadOpenAI();
    let channel: CassetteChannel | null = null;
    if (cassette !== null) {
      channel = await cassette.openChannel({
        channel: judgeChannelKey(this.config.model),
        upstream: this.config.baseUrl,
        redactor,
      });
      opened(channel);
    }
    const missed = (): JudgeVerdict | null => {
      facts.cassette = channel?.use() ?? null;
      const miss = channel?.miss() ?? null;
      return miss === null ? null : fail(JudgeErrorCode.CASSETTE_MISS, miss.message, MISS_MESSAGE_CHARS);
    };
    const client = this.client(apiKey, channel?.fetch);
    const body = buildJudgeRequest(this.config, checked.subject);
    let completion: OpenAI.Chat.Completions.ChatCompletion | null = null;
    for (let attempt = 0; attempt <= this.config.maxRetries; attempt++) {
      facts.attempts = attempt + 1;
      // Our own deadline per attempt: the SDK's abort detection misreads cross-realm AbortErrors
      // (as under Jest), and this also bounds reading the body, not just the headers.
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), this.config.timeoutMs);
      try {
        const { data, request_id } = await client.chat.completions
          .create(body as OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming, { signal: deadline.signal })
          .withResponse();
        facts.requestId = request_id;
        completion = data;
        break;
      } catch (error) {
        // A replay miss is never retried: the cassette will not answer it the second time either.
        const miss = missed();
        if (miss !== null) return miss;
        if (deadline.signal.aborted || error instanceof APIConnectionTimeoutError) {
          return fail(
            JudgeErrorCode.TIMEOUT,
            `the judge endpoint ${this.config.endpointHost} did not answer within ${this.config.timeoutMs} ms`,
          );
        }
        if (error instanceof APIConnectionError) {
          const code = networkCode(error);
          return fail(
            JudgeErrorCode.NETWORK_ERROR,
            `could not reach the judge endpoint ${this.config.endpointHost}${code ? ` (${code})` : ''}`,
          );
        }
        if (error instanceof APIError) {
          facts.requestId = error.requestID ?? facts.requestId;
          if (isRetryable(error.status) && attempt < this.config.maxRetries) {
            await sleep(backoffMs(error, attempt));
            continue;
          }
          const status = error.status ?? 'unknown';
          const redirect = typeof error.status === 'number' && error.status >= 300 && error.status < 400;
          return fail(
            JudgeErrorCode.HTTP_ERROR,
            redirect
              ? `the judge endpoint ${this.config.endpointHost} answered with a redirect (HTTP ${status}); redirects are never followed: set baseUrl to the final URL`
              : `the judge endpoint ${this.config.endpointHost} answered HTTP ${status} after ${facts.attempts} attempt(s)`,
          );
        }
        const name = error instanceof Error ? error.name : typeof error;
        return fail(JudgeErrorCode.NETWORK_ERROR, `the judge request failed unexpectedly (${name})`);
      } finally {
        clearTimeout(timer);
      }
    }
    const miss = missed();
    if (miss !== null) return miss;
    if (completion === null) return fail(JudgeErrorCode.HTTP_ERROR, 'the judge endpoint gave no answer');
    facts.usage = toUsage(completion.usage);
    facts.returnedModel = typeof completion.model === 'string' ? completion.model.slice(0, 256) : null;
    return this.decide(completion, facts, started, redactor, fail);
  }

  private decide(
    completion: OpenAI.Chat.Completions.ChatCompletion,
    facts: CallFacts,
    started: number,
    redactor: Redactor,
    fail: (code: JudgeErrorCode, message: string) => JudgeVerdict,
  ): JudgeVerdict {
    const choice = Array.isArray(completion.choices) ? completion.choices[0] : undefined;
    if (!choice || typeof choice.message !== 'object' || choice.message === null) {
      return fail(JudgeErrorCode.MALFORMED_RESPONSE, 'the judge response has no choices[0].message');
    }
    const refusal = (choice.message as { refusal?: unknown }).refusal;
    if ((typeof refusal === 'string' && refusal.length > 0) || choice.finish_reason === 'content_filter') {
      return fail(JudgeErrorCode.REFUSED, 'the judge model refused to grade this subject');
    }
    if (choice.finish_reason === 'length') {
      return fail(JudgeErrorCode.MALFORMED_RESPONSE, 'the judge reply was cut off (finish_reason length)');
    }
    const content = choice.message.content;
    if (typeof content !== 'string' || content.trim().length === 0) {
      return fail(JudgeErrorCode.MALFORMED_RESPONSE, 'the judge reply has no text content');
    }
    const parsed = parseJudgeReply(content);
    if (!parsed.ok) return fail(JudgeErrorCode.MALFORMED_RESPONSE, parsed.problem);
    const { reply } = parsed;
    const rationale = redactor.redactText(reply.rationale);
    if (reply.abstain) {
      return this.verdict('error', null, `judge abstained: ${rationale}`, facts, started, JudgeErrorCode.ABSTAINED);
    }
    const score = reply.score as number;
    return this.verdict(score >= this.config.threshold ? 'passed' : 'failed', score, rationale, facts, started, null);
  }

  private verdict(
    status: EvaluationStatus,
    score: number | null,
    rationale: string,
    facts: CallFacts,
    started: number,
    errorCode: JudgeErrorCode | null,
  ): JudgeVerdict {
    const latencyMs = Date.now() - started;
    const usage = facts.usage;
    const metrics: EvaluationMetrics = { latencyMs, attempts: facts.attempts, threshold: this.config.threshold };
    if (usage) {
      metrics.promptTokens = usage.promptTokens;
      metrics.completionTokens = usage.completionTokens;
      metrics.totalTokens = usage.totalTokens;
    }
    if (errorCode) metrics.errorCode = errorCode;
    const provenance: JsonObject = {
      kind: 'llm_judge',
      provider: 'openai',
      model: this.config.model,
      endpointHost: this.config.endpointHost,
      responseMode: this.config.responseMode,
      auth: this.config.auth,
      rubricId: this.config.rubricId,
      rubricVersion: this.config.rubricVersion,
      threshold: this.config.threshold,
      configDigest: this.configDigest,
      promptVersion: JUDGE_PROMPT_VERSION,
      requestId: facts.requestId,
      latencyMs,
      attempts: facts.attempts,
      usage: usage ? { ...usage } : null,
      returnedModel: facts.returnedModel,
      errorCode,
      ...(facts.cassette !== null && { cassette: facts.cassette }),
    };
    return Object.freeze({ status, score, rationale, metrics, provenance, errorCode });
  }

  private client(apiKey: string | null, through?: typeof fetch): OpenAI {
    const { OpenAI } = loadOpenAI();
    return new OpenAI({
      apiKey: apiKey ?? 'anonymous-loopback',
      baseURL: this.config.baseUrl,
      organization: null,
      project: null,
      // The per-attempt deadline above is authoritative; this is only a backstop.
      timeout: this.config.timeoutMs + 5_000,
      maxRetries: 0,
      // Never follows redirects; auth 'none' sends no Authorization header at all.
      fetch: chatEndpointFetch(this.config.auth === 'none', through),
    });
  }
}
