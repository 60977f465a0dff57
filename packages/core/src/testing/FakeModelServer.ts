import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicMessagesDialect } from './anthropicMessagesDialect';
import { chatCompletionsDialect } from './chatCompletionsDialect';
import { headersOf, parseJsonBody, readBody } from './fakeHttp';
import type { DialectRoute, FakeDialect } from './fakeModelDialect';
import { checkLimits, DEFAULT_FAKE_MODEL_LIMITS, type FakeLimitViolation } from './fakeModelLimits';
import { resolveReply, withOfferedToolNames, type FakeChatReply } from './fakeModelReply';
import { describeRequest, type FakeModelRequest, type RecordedChatRequest } from './fakeModelRequest';
import {
  FakeRuleBook,
  type FakeChatReplySource,
  type FakeRequestMatch,
  type FakeRule,
  type FakeRuleOptions,
} from './fakeModelRules';
import { answerSideRequest } from './fakeSideRoutes';
import { geminiDialect } from './geminiDialect';
import { responsesDialect } from './responsesDialect';

const DIALECTS: readonly FakeDialect[] = [
  chatCompletionsDialect,
  anthropicMessagesDialect,
  geminiDialect,
  responsesDialect,
];

/** Options of the fake model server. */
export interface FakeChatCompletionsServerOptions {
  /** Replies answered in order, one per model request no rule matched. */
  readonly replies?: readonly FakeChatReplySource[];
  /** Answer when no rule matches and the queue is empty; without it such a request gets an error saying so. */
  readonly defaultReply?: FakeChatReplySource;
  /** Model name echoed in responses; default: `fake-model` for Chat Completions, the requested model otherwise. */
  readonly model?: string;
  /** Model requests answered in all before every further one is refused with HTTP 400; default 200. */
  readonly maxRequests?: number;
  /** Tool-call rounds one conversation may hold before its next request is refused with HTTP 400; default 25. */
  readonly maxRounds?: number;
  /** Models listed by the model-listing routes; default `[model ?? 'fake-model']`. */
  readonly models?: readonly string[];
  /**
   * Codex code mode (Responses): before any rule, answer a request that names deferred tool namespaces and
   * holds no discovery yet with one `exec` call listing the nested tools (`answers` kind `discovery`), so
   * `tool` rules can match them; default true.
   */
  readonly discoverCodeModeTools?: boolean;
}

/** Which script answered a model request. */
export type FakeAnswerSource =
  | { readonly kind: 'rule'; readonly index: number }
  | { readonly kind: 'queue' | 'default' | 'unscripted' | 'discovery' }
  | { readonly kind: 'limit'; readonly limit: FakeLimitViolation['limit'] };

/**
 * A loopback fake model endpoint with scripted replies, for testing judges, tool-calling loops and real
 * agents offline. It speaks OpenAI Chat Completions (`/v1/chat/completions`), OpenAI Responses
 * (`/v1/responses`, as Codex reads it), Anthropic Messages (`/v1/messages`) and Gemini
 * (`/v1beta/models/<m>:generateContent` / `:streamGenerateContent`), JSON
 * and streamed; answers model listings and token counts; records every request, with a neutral view of
 * model requests. A request is answered by the first matching `when(...)` rule, else the next queued
 * reply, else `defaultReply`. `maxRequests` and `maxRounds` refuse runaway loops with HTTP 400.
 *
 * @example
 * const fake = new FakeModelServer()
 *   .when({ lastUserText: /quote/, afterToolResult: false }, { toolCalls: [{ name: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } }] })
 *   .when({ afterToolResult: 'shipping_quote' }, (req) => ({ content: `Quote: ${req.messages.at(-1)!.toolResults[0]!.text}` }));
 * const { baseUrl, origin } = await fake.start(); // baseUrl for OpenAI clients, origin for ANTHROPIC_BASE_URL / GOOGLE_GEMINI_BASE_URL
 */
export class FakeModelServer {
  /** Every HTTP request received, oldest first (model requests are `FakeModelRequest`s). */
  readonly requests: RecordedChatRequest[] = [];
  /** Model requests with their neutral view, oldest first. */
  readonly modelRequests: FakeModelRequest[] = [];
  /** Which script answered each model request (same order as `modelRequests`). */
  readonly answers: FakeAnswerSource[] = [];
  /** Requests refused because a limit was reached. */
  readonly limitViolations: FakeLimitViolation[] = [];
  private readonly rules = new FakeRuleBook();
  private readonly queue: FakeChatReplySource[];
  private readonly defaultReply: FakeChatReplySource | undefined;
  private readonly model: string | undefined;
  private readonly models: readonly string[];
  private readonly limits: { maxRequests: number; maxRounds: number };
  private readonly discover: boolean;
  private server: Server | null = null;
  private rootUrl: string | null = null;
  private answerCount = 0;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(options: FakeChatCompletionsServerOptions = {}) {
    this.queue = [...(options.replies ?? [])];
    this.defaultReply = options.defaultReply;
    this.model = options.model;
    this.models = options.models ?? [options.model ?? 'fake-model'];
    this.discover = options.discoverCodeModeTools ?? true;
    this.limits = {
      maxRequests: options.maxRequests ?? DEFAULT_FAKE_MODEL_LIMITS.maxRequests,
      maxRounds: options.maxRounds ?? DEFAULT_FAKE_MODEL_LIMITS.maxRounds,
    };
  }

  /** Adds a content-matched rule (tried before the queue, in the order added); returns this. */
  when(match: FakeRequestMatch, reply: FakeChatReplySource, options?: FakeRuleOptions): this {
    this.rules.add(match, reply, options);
    return this;
  }

  /** The rules added with `when`, with how often each answered. */
  get ruleUsage(): readonly Readonly<FakeRule>[] {
    return this.rules.rules;
  }

  /** Appends scripted replies answered in order; returns this. */
  enqueue(...replies: FakeChatReplySource[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Queued replies not yet used. */
  get pendingReplies(): number {
    return this.queue.length;
  }

  /** The OpenAI-style base URL (`http://127.0.0.1:<port>/v1`) once started. */
  get baseUrl(): string {
    return `${this.origin}/v1`;
  }

  /** The server's origin (`http://127.0.0.1:<port>`): `ANTHROPIC_BASE_URL`, `GOOGLE_GEMINI_BASE_URL`. */
  get origin(): string {
    if (this.rootUrl === null) throw new Error(`${this.constructor.name} is not started: await fake.start() first`);
    return this.rootUrl;
  }

  /** Listens on an ephemeral loopback port. */
  async start(): Promise<{ baseUrl: string; origin: string }> {
    if (this.rootUrl === null) {
      const server = createServer((req, res) => void this.handle(req, res));
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
      this.server = server;
      this.rootUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }
    return { baseUrl: this.baseUrl, origin: this.origin };
  }

  /** Stops listening and drops open connections; idempotent. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const method = req.method ?? 'GET';
    const recorded: RecordedChatRequest = {
      method,
      path: url.pathname,
      headers: headersOf(req),
      body: parseJsonBody(raw),
    };
    let dialect: FakeDialect | undefined;
    let route: DialectRoute | null = null;
    for (const candidate of DIALECTS) {
      route = candidate.route(method, url.pathname, url.searchParams);
      if (route) {
        dialect = candidate;
        break;
      }
    }
    if (!dialect || !route) {
      this.requests.push(recorded);
      if (answerSideRequest(recorded, raw, this.models, res)) return;
      return chatCompletionsDialect.writeError(res, 404, `no route ${method} ${url.pathname}`, 'not_found', {});
    }
    const request: FakeModelRequest = {
      ...recorded,
      ...dialect.read(recorded.body, route),
      dialect: dialect.name,
      number: this.modelRequests.length + 1,
    };
    this.requests.push(request);
    this.modelRequests.push(request);
    const violation = checkLimits(this.limits, request);
    if (violation) {
      this.limitViolations.push(violation);
      this.answers.push({ kind: 'limit', limit: violation.limit });
      return dialect.writeError(res, 400, violation.message, 'fake_model_limit', {});
    }
    const own = this.discover ? (dialect.ownReply?.(request) ?? null) : null;
    if (own) this.answers.push({ kind: 'discovery' });
    const reply = own ?? this.chooseReply(request);
    if (!reply) {
      // Chat keeps its documented 500; agents retry 5xx from the other dialects for minutes, so they get a 400.
      const status = dialect === chatCompletionsDialect ? 500 : 400;
      const message =
        `${this.constructor.name} has no scripted reply left: no rule matched ${describeRequest(request)} and the ` +
        `queue is empty. Add fake.when({...}, reply), enqueue one, or set defaultReply; fake.modelRequests shows what arrived.`;
      return dialect.writeError(res, status, message, 'server_error', {});
    }
    await this.answer(req, res, dialect, route, request, reply);
  }

  private chooseReply(request: FakeModelRequest): FakeChatReply | null {
    const ruled = this.rules.take(request);
    let source: FakeChatReplySource | undefined;
    if (ruled) {
      source = ruled.rule.reply;
      this.answers.push({ kind: 'rule', index: ruled.index });
    } else if (this.queue.length > 0) {
      source = this.queue.shift();
      this.answers.push({ kind: 'queue' });
    } else if (this.defaultReply) {
      source = this.defaultReply;
      this.answers.push({ kind: 'default' });
    } else {
      this.answers.push({ kind: 'unscripted' });
      return null;
    }
    return typeof source === 'function' ? source(request) : (source ?? null);
  }

  private async answer(
    req: IncomingMessage,
    res: ServerResponse,
    dialect: FakeDialect,
    route: DialectRoute,
    request: FakeModelRequest,
    reply: FakeChatReply,
  ): Promise<void> {
    if (reply.delayMs && reply.delayMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          resolve();
        }, reply.delayMs);
        this.timers.add(timer);
      });
      if (res.destroyed || this.server === null) return;
    }
    if (reply.dropConnection) {
      req.socket.destroy();
      return;
    }
    const status = reply.status ?? 200;
    const headers = reply.headers ?? {};
    if (reply.rawBody !== undefined) {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(reply.rawBody);
      return;
    }
    if (status < 200 || status >= 300) {
      return dialect.writeError(res, status, `scripted HTTP ${status}`, 'fake_error', headers);
    }
    this.answerCount += 1;
    const resolved = withOfferedToolNames(
      resolveReply(reply, this.answerCount, dialect.toolCallIdPrefix),
      request.tools.map((t) => t.name),
    );
    const model = this.model ?? (dialect === chatCompletionsDialect ? 'fake-model' : (request.model ?? 'fake-model'));
    dialect.write(res, resolved, {
      model,
      stream: request.stream,
      route,
      headers: { 'x-request-id': `req_fake_${this.answerCount}`, ...headers },
      request,
    });
  }
}
