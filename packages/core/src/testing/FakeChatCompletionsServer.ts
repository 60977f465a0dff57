import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonObject, JsonValue } from '../json';

/** A tool call the fake model asks for. */
export interface FakeToolCall {
  /** Defaults to `call_<n>`. */
  readonly id?: string;
  readonly name: string;
  /** A JSON string, or an object (serialized for you). */
  readonly arguments: string | JsonObject;
}

/** One scripted reply. Everything is optional: `{}` answers an empty assistant message. */
export interface FakeChatReply {
  /** Assistant text; an object is sent as its JSON text (handy for judge replies). */
  readonly content?: string | JsonObject | null;
  /** HTTP status; non-2xx sends an OpenAI-style error body. Default 200. */
  readonly status?: number;
  /** Waits this long before answering (to test timeouts). */
  readonly delayMs?: number;
  readonly toolCalls?: readonly FakeToolCall[];
  /** Sends `message.refusal` with this text (and null content). */
  readonly refusal?: string;
  /** Default `tool_calls` when there are tool calls, else `stop`. */
  readonly finishReason?: 'stop' | 'length' | 'content_filter' | 'tool_calls';
  readonly usage?: { readonly promptTokens: number; readonly completionTokens: number };
  /** Extra response headers (e.g. `retry-after`, `location`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Replaces the whole response body with this raw text (to test malformed provider output). */
  readonly rawBody?: string;
  /** Destroys the connection without answering (to test network errors). */
  readonly dropConnection?: boolean;
}

/** A request the fake server received. */
export interface RecordedChatRequest {
  readonly method: string;
  readonly path: string;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON body, or null when it was not JSON. */
  readonly body: JsonValue | null;
}

/** A reply, or a function choosing one from the request (e.g. answer after seeing a tool result). */
export type FakeChatReplySource = FakeChatReply | ((request: RecordedChatRequest) => FakeChatReply);

/** Options of the fake server. */
export interface FakeChatCompletionsServerOptions {
  /** Replies answered in order, one per request. */
  readonly replies?: readonly FakeChatReplySource[];
  /** Answer when the queue is empty; without it an empty queue answers HTTP 500 saying so. */
  readonly defaultReply?: FakeChatReplySource;
  /** Model name echoed in responses; default `fake-model`. */
  readonly model?: string;
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * A loopback OpenAI-compatible Chat Completions endpoint with scripted replies, for testing judges,
 * rubrics, thresholds and tool-calling loops offline. Serves `POST /v1/chat/completions` and
 * `POST /chat/completions` (also `stream: true`, as server-sent chunks); every request is recorded.
 *
 * @example
 * const fake = new FakeChatCompletionsServer({ replies: [{ content: { score: 0.9, rationale: 'ok', abstain: false } }] });
 * const { baseUrl } = await fake.start();
 * const judge = new LLMJudge({ model: 'm', baseUrl, auth: 'none', responseMode: 'json_text' });
 */
export class FakeChatCompletionsServer {
  /** Requests received, oldest first. */
  readonly requests: RecordedChatRequest[] = [];
  private readonly queue: FakeChatReplySource[];
  private readonly defaultReply: FakeChatReplySource | undefined;
  private readonly model: string;
  private server: Server | null = null;
  private url: string | null = null;
  private completionCount = 0;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(options: FakeChatCompletionsServerOptions = {}) {
    this.queue = [...(options.replies ?? [])];
    this.defaultReply = options.defaultReply;
    this.model = options.model ?? 'fake-model';
  }

  /** Appends scripted replies; returns this. */
  enqueue(...replies: FakeChatReplySource[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Replies not yet used. */
  get pendingReplies(): number {
    return this.queue.length;
  }

  /** The base URL (`http://127.0.0.1:<port>/v1`) once started. */
  get baseUrl(): string {
    if (this.url === null) throw new Error('FakeChatCompletionsServer is not started: await fake.start() first');
    return this.url;
  }

  /** Listens on an ephemeral loopback port. */
  async start(): Promise<{ baseUrl: string }> {
    if (this.url !== null) return { baseUrl: this.url };
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    return { baseUrl: this.url };
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
    const path = (req.url ?? '/').split('?')[0]!;
    const body = parseJson(raw);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const recorded: RecordedChatRequest = { method: req.method ?? 'GET', path, headers, body };
    this.requests.push(recorded);
    if (req.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/chat/completions')) {
      return send(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'not_found' } });
    }
    const source = this.queue.shift() ?? this.defaultReply;
    const reply = typeof source === 'function' ? source(recorded) : source;
    if (!reply) {
      return send(res, 500, {
        error: { message: 'FakeChatCompletionsServer has no scripted reply left: enqueue one', type: 'server_error' },
      });
    }
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
    const extraHeaders = reply.headers ?? {};
    if (reply.rawBody !== undefined) {
      res.writeHead(status, { 'content-type': 'application/json', ...extraHeaders });
      res.end(reply.rawBody);
      return;
    }
    if (status < 200 || status >= 300) {
      return send(
        res,
        status,
        { error: { message: `scripted HTTP ${status}`, type: 'fake_error', code: null } },
        extraHeaders,
      );
    }
    const completion = this.completion(reply);
    const requestId = { 'x-request-id': `req_fake_${this.completionCount}`, ...extraHeaders };
    const streaming = typeof body === 'object' && body !== null && !Array.isArray(body) && body.stream === true;
    if (streaming) return sendStream(res, completion, requestId);
    send(res, status, completion, requestId);
  }

  private completion(reply: FakeChatReply): JsonObject {
    this.completionCount += 1;
    const n = this.completionCount;
    const toolCalls = (reply.toolCalls ?? []).map((call, i) => ({
      id: call.id ?? `call_${n}_${i + 1}`,
      type: 'function',
      function: {
        name: call.name,
        arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
      },
    }));
    const content =
      reply.refusal !== undefined
        ? null
        : typeof reply.content === 'object' && reply.content !== null
          ? JSON.stringify(reply.content)
          : (reply.content ?? (toolCalls.length > 0 ? null : ''));
    const message: JsonObject = { role: 'assistant', content, refusal: reply.refusal ?? null };
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    const promptTokens = reply.usage?.promptTokens ?? 10;
    const completionTokens = reply.usage?.completionTokens ?? 5;
    return {
      id: `chatcmpl-fake-${n}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: this.model,
      choices: [
        {
          index: 0,
          message,
          finish_reason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
          logprobs: null,
        },
      ],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
    };
  }
}

function parseJson(raw: string): JsonValue | null {
  if (raw.length === 0) return null;
  try {
    return JSON.parse(raw) as JsonValue;
  } catch {
    return null;
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(''));
  });
}

/** Answers a `stream: true` request as server-sent `chat.completion.chunk` events, then `[DONE]`. */
function sendStream(res: ServerResponse, completion: JsonObject, headers: Record<string, string>): void {
  if (res.destroyed) return;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
  const choice = (completion.choices as JsonObject[])[0]!;
  const message = choice.message as JsonObject;
  const base = {
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
  };
  const chunk = (delta: JsonObject, finishReason: JsonValue, usage?: JsonValue): string =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }], ...(usage !== undefined ? { usage } : {}) })}\n\n`;
  const delta: JsonObject = { role: 'assistant', content: message.content ?? null };
  if (message.refusal !== null) delta.refusal = message.refusal;
  if (Array.isArray(message.tool_calls)) {
    delta.tool_calls = message.tool_calls.map((call, index) => ({ index, ...(call as JsonObject) }));
  }
  res.write(chunk(delta, null));
  res.write(chunk({}, choice.finish_reason ?? 'stop', completion.usage));
  res.end('data: [DONE]\n\n');
}

function send(res: ServerResponse, status: number, body: JsonValue, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
