import { randomBytes } from 'node:crypto';
import type { McpServerTape } from '../../cassettes/servers/McpServerTape';
import { isRequestMessage } from '../../cassettes/servers/mcpTapeMessages';
import { TapeExchangeRecorder } from '../../cassettes/servers/TapeExchangeRecorder';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { prepareHttpAuth } from '../../auth/prepareHttpAuth';
import type { TransportKind } from '../../enums';
import { AuthenticationError } from '../../errors';
import { newId } from '../../ids';
import type { JsonValue } from '../../json';
import type { ProxyToolPolicy } from '../../proxy/toolPolicy';
import type { Redactor } from '../../redaction/Redactor';
import { checkEndpointTrust, safeUrl } from '../../servers/endpointTrust';
import type { HTTPServer } from '../../servers/HTTPServer';
import { resolveConfiguredValues } from '../../servers/resolveConfiguredValues';
import type { TraceRecorder } from '../../trace/TraceRecorder';
import { denialResponse, judgeToolCall, type ToolCallVerdict } from './policyDecision';
import { listenOnLoopback, parseJson, readBody, relayEventStream, sendJson, sendJsonRpcError } from './httpRelay';
import { WireEventWriter, type WireScope } from './WireEventWriter';

/** The HTTP descriptor an agent is given in place of the real server. */
export interface HttpAgentDescriptor {
  type: 'http';
  name: string;
  url: string;
  headers: Array<{ name: string; value: string }>;
}

/** What a reverse proxy forwards to and how it records. */
export interface HttpWireProxyOptions {
  readonly name: string;
  /** The real Streamable HTTP endpoint (trust already checked). */
  readonly target: URL;
  /** Headers the proxy adds to every forwarded request (resolved secrets included). */
  readonly headers: Readonly<Record<string, string>>;
  readonly policy: ProxyToolPolicy;
  readonly recorder: TraceRecorder;
  readonly scope: WireScope;
  /** What the trace names the server's transport (`http`, or `in_process` for a hosted factory). */
  readonly transportKind: TransportKind;
  /** The upstream fetch: the server's `auth` (contract §17) wraps it; default the global fetch. */
  readonly fetch?: FetchLike;
  /** The connection id of the wire events (default a new one). */
  readonly connectionId?: string;
  /**
   * The server's cassette tape (contract §24, `cassettes: { servers: true }`): replaying, requests
   * are answered from it and nothing is forwarded; live, every exchange is recorded on it.
   */
  readonly tape?: McpServerTape;
}

/**
 * Request headers of the agent passed on (everything else, credentials included, is dropped). The
 * 2026-07-28 era requires `Mcp-Method` / `Mcp-Name` on every POST (contract §23): a server checks
 * them against the body, so they go on unchanged.
 */
const FORWARDED_REQUEST_HEADERS = [
  'accept',
  'content-type',
  'mcp-session-id',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'last-event-id',
];
/** Response headers passed back to the agent. */
const FORWARDED_RESPONSE_HEADERS = ['content-type', 'mcp-session-id', 'mcp-protocol-version', 'cache-control'];

/**
 * A loopback reverse proxy in front of one Streamable HTTP MCP endpoint, listening on 127.0.0.1
 * at an unguessable path. It forwards POST, GET and DELETE to the real URL adding the server's own
 * headers (the agent never sees them), never follows redirects, keeps `Mcp-Session-Id` and the
 * protocol headers, relays JSON and SSE answers as they arrive, records every JSON-RPC message
 * both ways straight into the trace (origin `wire_observed`), and answers a `tools/call` the
 * policy denies itself, with the stdio proxy's -32001 error, without forwarding it. Messages are
 * recorded as the redacted message serialized (as `ObservedTransport` does), so credential-named
 * fields are redacted structurally in the evidence too.
 */
export class HttpWireProxy {
  readonly descriptor: HttpAgentDescriptor;
  private readonly writer: WireEventWriter;
  private readonly upstreams = new Set<AbortController>();
  private closing: Promise<boolean> | undefined;
  /** Live with a cassette: pairs what passes into tape exchanges. */
  private readonly exchanges: TapeExchangeRecorder | undefined;

  private constructor(
    private readonly options: HttpWireProxyOptions,
    private readonly http: Server,
    private readonly path: string,
    port: number,
    writer: WireEventWriter,
  ) {
    this.writer = writer;
    const { tape } = options;
    this.exchanges = tape !== undefined && tape.serving === 'live' ? new TapeExchangeRecorder(tape) : undefined;
    this.descriptor = { type: 'http', name: options.name, url: `http://127.0.0.1:${port}${path}`, headers: [] };
  }

  /** Checks the server's trust rules, resolves its headers (secrets become canaries) and listens. */
  static async forHttpServer(options: {
    server: HTTPServer;
    policy: ProxyToolPolicy;
    recorder: TraceRecorder;
    redactor: Redactor;
    scope: WireScope;
    tape?: McpServerTape;
  }): Promise<HttpWireProxy> {
    const { server, redactor } = options;
    if (options.tape?.serving === 'replay') {
      // Replaying from a cassette: the URL is never reached, its headers and auth never resolved.
      return HttpWireProxy.listen({
        ...options,
        name: server.name,
        target: new URL(server.url),
        headers: {},
        transportKind: 'http',
      });
    }
    const target = await checkEndpointTrust(server.url, server.trust);
    const headers = resolveConfiguredValues(server.headers, { redactor, what: 'headers', serverName: server.name });
    // The server's auth applies upstream: the agent never sees a token, the proxy gets and refreshes them.
    const connectionId = newId('conn');
    const auth = prepareHttpAuth(server, target, {
      redactor,
      recorder: options.recorder,
      connectionId,
      hasBearerOption: false,
    });
    if (auth.authorization !== undefined) headers.Authorization = auth.authorization;
    const fetch = auth.wrap((url, init) => globalThis.fetch(url, init));
    return HttpWireProxy.listen({
      ...options,
      name: server.name,
      target,
      headers,
      transportKind: 'http',
      fetch,
      connectionId,
    });
  }

  /** Starts listening on 127.0.0.1 (a free port) and records `transport.connected`. */
  static async listen(options: HttpWireProxyOptions): Promise<HttpWireProxy> {
    const path = `/${randomBytes(16).toString('hex')}/mcp`;
    const writer = new WireEventWriter({
      recorder: options.recorder,
      server: options.name,
      connectionId: options.connectionId ?? newId('conn'),
      scope: options.scope,
    });
    // Requests can only arrive once listening, by which time the proxy exists.
    const ready: { proxy?: HttpWireProxy } = {};
    const http = createServer((req, res) => {
      if (ready.proxy === undefined) return sendJsonRpcError(res, 503, 'the proxy is starting');
      ready.proxy.handle(req, res).catch(() => {
        writer.diagnostic('proxy_failed', 'the reverse proxy could not relay a request');
        sendJsonRpcError(res, 502, 'the sf-m3 reverse proxy could not relay this request');
      });
    });
    const port = await listenOnLoopback(http);
    const proxy = new HttpWireProxy(options, http, path, port, writer);
    ready.proxy = proxy;
    writer.transport(
      true,
      options.transportKind,
      options.tape?.serving === 'replay' ? 'cassette-replay' : 'reverse-proxy',
    );
    return proxy;
  }

  get name(): string {
    return this.options.name;
  }

  /** Nothing to read: the reverse proxy records as messages pass. */
  sync(): Promise<void> {
    return Promise.resolve();
  }

  /** Stops listening, aborts open upstream requests, records `transport.disconnected`; never throws. */
  close(): Promise<boolean> {
    this.closing ??= (async () => {
      for (const upstream of this.upstreams) upstream.abort();
      this.http.closeAllConnections();
      const closed = await new Promise<boolean>((resolve) => this.http.close((error) => resolve(error === undefined)));
      this.writer.abandonOpenRequests('the reverse proxy closed');
      this.writer.transport(false, this.options.transportKind, 'reverse-proxy', 'closed_by_client');
      return closed || !this.http.listening;
    })();
    return this.closing;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== this.path || url.search !== '') {
      res.writeHead(404).end();
      return;
    }
    const method = req.method ?? 'GET';
    if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') {
      res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
      return;
    }
    let body: string | undefined;
    let denied: unknown[] = [];
    if (method === 'POST') {
      const bytes = await readBody(req);
      if (bytes === null) return sendJsonRpcError(res, 413, 'the request body is larger than 16 MiB');
      const judged = this.judgeRequest(bytes.toString('utf8'));
      if (judged.answerLocally) {
        this.answerDenied(res, judged.denied, judged.batch);
        return;
      }
      body = judged.forward;
      denied = judged.denied;
    }
    if (this.options.tape?.serving === 'replay') {
      return this.answerFromTape(this.options.tape, res, method, body, denied);
    }
    await this.forward(req, res, method, body, denied);
  }

  /**
   * Records the agent's messages and applies the policy: what to forward (a batch without its
   * denied calls) and the proxy's answers to the denied ones.
   */
  private judgeRequest(text: string): { forward: string; denied: unknown[]; batch: boolean; answerLocally: boolean } {
    const parsed = parseJson(text);
    if (!parsed.ok) {
      this.writer.diagnostic('non_json_frame', 'a request body that is not JSON was forwarded', {
        direction: 'client_to_server',
        raw: text,
      });
      return { forward: text, denied: [], batch: false, answerLocally: false };
    }
    const batch = Array.isArray(parsed.value);
    const messages: unknown[] = batch ? (parsed.value as unknown[]) : [parsed.value];
    const verdicts = messages.map((m) => judgeToolCall(this.options.policy, m));
    messages.forEach((m, i) =>
      this.writer.message(m, undefined, 'client_to_server', {
        ...(verdicts[i] !== undefined && { policy: { decision: verdicts[i].decision, reason: verdicts[i].reason } }),
      }),
    );
    const isDenied = (v: ToolCallVerdict | undefined) => v?.decision === 'denied';
    if (!verdicts.some(isDenied)) {
      messages.forEach((m) => this.exchanges?.fromClient(m));
      return { forward: text, denied: [], batch, answerLocally: false };
    }
    const denied = messages.flatMap((m, i) => {
      const id = (m as { id?: JsonValue }).id;
      return isDenied(verdicts[i]) && id !== undefined ? [denialResponse(this.name, id, verdicts[i]!)] : [];
    });
    const kept = messages.filter((_m, i) => !isDenied(verdicts[i]));
    kept.forEach((m) => this.exchanges?.fromClient(m));
    if (kept.length === 0) return { forward: '', denied, batch, answerLocally: true };
    return { forward: JSON.stringify(kept), denied, batch, answerLocally: false };
  }

  /** Answers a request whose every message was denied; nothing is forwarded. */
  private answerDenied(res: ServerResponse, denied: unknown[], batch: boolean): void {
    for (const answer of denied) this.writer.message(answer, undefined, 'server_to_client', { answeredByProxy: true });
    if (denied.length === 0) {
      res.writeHead(202).end();
      return;
    }
    sendJson(res, 200, batch ? denied : denied[0]);
  }

  private upstreamHeaders(req: IncomingMessage): Headers {
    const headers = new Headers();
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    for (const [name, value] of Object.entries(this.options.headers)) headers.set(name, value);
    return headers;
  }

  private async forward(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    body: string | undefined,
    denied: unknown[],
  ): Promise<void> {
    const upstream = new AbortController();
    this.upstreams.add(upstream);
    res.on('close', () => {
      if (!res.writableFinished) upstream.abort();
      this.upstreams.delete(upstream);
    });
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(this.options.target, {
        method,
        headers: this.upstreamHeaders(req),
        ...(body !== undefined && { body }),
        redirect: 'manual',
        signal: upstream.signal,
      });
    } catch (error) {
      if (upstream.signal.aborted) return void res.end();
      if (error instanceof AuthenticationError) {
        this.writer.diagnostic('authentication_failed', error.message);
        return sendJsonRpcError(res, 502, 'the MCP server rejected the sf-m3 reverse proxy: authentication failed');
      }
      const code = (error as { cause?: { code?: unknown } }).cause?.code;
      this.writer.diagnostic(
        'upstream_unreachable',
        `the HTTP MCP endpoint ${safeUrl(this.options.target)} could not be reached${typeof code === 'string' ? ` (${code})` : ''}`,
      );
      return sendJsonRpcError(res, 502, 'the MCP server could not be reached through the sf-m3 reverse proxy');
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      this.writer.diagnostic(
        'redirect_refused',
        `the HTTP MCP endpoint ${safeUrl(this.options.target)} answered with a redirect (${response.status}); redirects are not followed: point the HTTPServer url at the final endpoint`,
      );
      return sendJsonRpcError(res, 502, 'the MCP server answered with a redirect, which is not followed');
    }
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    const contentType = response.headers.get('content-type') ?? '';
    const observe = this.exchanges === undefined ? undefined : (m: unknown) => this.exchanges?.fromServer(m);
    if (contentType.includes('text/event-stream')) {
      return relayEventStream(res, response, headers, this.writer, denied, observe);
    }
    const text = response.body === null ? '' : await response.text();
    if (contentType.includes('application/json') && text.length > 0) {
      const parsed = parseJson(text);
      if (parsed.ok) {
        const messages: unknown[] = Array.isArray(parsed.value) ? (parsed.value as unknown[]) : [parsed.value];
        for (const m of messages) {
          this.writer.message(m, undefined, 'server_to_client');
          observe?.(m);
        }
        if (denied.length > 0) {
          for (const m of denied) this.writer.message(m, undefined, 'server_to_client', { answeredByProxy: true });
          res.writeHead(response.status, headers);
          res.end(JSON.stringify([...messages, ...denied]));
          return;
        }
      } else {
        this.writer.diagnostic('non_json_frame', 'a JSON response body that is not JSON was relayed', {
          direction: 'server_to_client',
          raw: text,
        });
      }
    }
    if (denied.length > 0 && text.length === 0 && response.status === 202) {
      // The kept part of a batch was only notifications: the denied calls still need answers.
      for (const m of denied) this.writer.message(m, undefined, 'server_to_client', { answeredByProxy: true });
      return sendJson(res, 200, denied);
    }
    res.writeHead(response.status, headers);
    res.end(text);
  }

  /**
   * Replaying from a cassette (contract §24): each request of the POST is answered from the tape
   * with the agent's id (a miss as a JSON-RPC error), what the server sent before an answer
   * included, so the response is an SSE stream when there is more than the answers, JSON otherwise;
   * a POST of notifications only gets 202. There is no standalone stream (GET: 405) and no session
   * to end (DELETE: 200).
   */
  private answerFromTape(
    tape: McpServerTape,
    res: ServerResponse,
    method: string,
    body: string | undefined,
    denied: unknown[],
  ): void {
    if (method === 'GET') {
      res.writeHead(405, { allow: 'POST, DELETE' }).end();
      return;
    }
    if (method === 'DELETE' || body === undefined) {
      res.writeHead(200).end();
      return;
    }
    const parsed = parseJson(body);
    const batch = parsed.ok && Array.isArray(parsed.value);
    const sent: unknown[] = !parsed.ok ? [] : batch ? (parsed.value as unknown[]) : [parsed.value];
    const answers = sent.filter(isRequestMessage).flatMap((m) => tape.answer(m));
    for (const m of answers) this.writer.message(m, undefined, 'server_to_client');
    for (const m of denied) this.writer.message(m, undefined, 'server_to_client', { answeredByProxy: true });
    const out = [...answers, ...denied];
    if (out.length === 0) {
      res.writeHead(202).end();
      return;
    }
    const onlyAnswers = out.every((m) => typeof m === 'object' && m !== null && !('method' in m));
    if (onlyAnswers) return sendJson(res, 200, batch ? out : out.length === 1 ? out[0] : out);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(out.map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`).join(''));
  }
}
