import type { IncomingMessage, ServerResponse } from 'node:http';

/** The era an SDK v2 server factory is asked to build for (as the SDK's own factories are). */
export type ServedEra = 'legacy' | 'modern';

/** The parts of `@modelcontextprotocol/server` the modern leg uses (an optional peer, loaded lazily). */
interface ServerHttpModule {
  createMcpHandler(
    factory: (context: { era: ServedEra }) => unknown,
    options: { legacy: 'reject' },
  ): { fetch(request: Request): Promise<Response>; close(): Promise<void> };
  isLegacyRequest(request: Request, parsedBody?: unknown): Promise<boolean>;
}

/** Request headers handed to the SDK's handler (the reverse proxy has already chosen them). */
function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return headers;
}

/**
 * The 2026-07-28 side of an in-process SDK v2 server on HTTP (contract §23): the SDK's own
 * per-request handler (`createMcpHandler` with `legacy: 'reject'`) built on the factory, and the
 * SDK's own classification (`isLegacyRequest`) of which requests belong to it, so the endpoint
 * routes exactly as the SDK's HTTP entry does; the legacy requests stay on the endpoint's
 * session-based serving (which can ask the agent for input, unlike the SDK's stateless fallback).
 */
export class ModernHttpLeg {
  private readonly handler: ReturnType<ServerHttpModule['createMcpHandler']>;

  private constructor(
    private readonly sdk: ServerHttpModule,
    factory: (context: { era: ServedEra }) => unknown,
  ) {
    this.handler = sdk.createMcpHandler(factory, { legacy: 'reject' });
  }

  /** Loads `@modelcontextprotocol/server` (present whenever the factory built a v2 server). */
  static create(factory: (context: { era: ServedEra }) => unknown): ModernHttpLeg {
    const sdk = require('@modelcontextprotocol/server') as ServerHttpModule;
    return new ModernHttpLeg(sdk, factory);
  }

  /** True when the SDK routes this request (method, headers, `body` as parsed) to the modern era. */
  async claims(req: IncomingMessage, url: URL, body: unknown): Promise<boolean> {
    const probe = new Request(url, { method: req.method ?? 'GET', headers: webHeaders(req) });
    return !(await this.sdk.isLegacyRequest(probe, body));
  }

  /** Serves one request (its body text already read) and streams the answer back (SSE included). */
  async serve(req: IncomingMessage, res: ServerResponse, url: URL, text: string): Promise<void> {
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const method = req.method ?? 'GET';
    const response = await this.handler.fetch(
      new Request(url, {
        method,
        headers: webHeaders(req),
        ...(method === 'POST' && { body: text }),
        signal: abort.signal,
      }),
    );
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    res.writeHead(response.status, headers);
    res.flushHeaders();
    if (response.body === null) {
      res.end();
      return;
    }
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (!res.write(chunk) && !res.writableEnded) {
          await new Promise<void>((resolve) => {
            res.once('drain', resolve);
            res.once('close', resolve);
          });
        }
      }
    } catch {
      // The agent or the endpoint closed the stream: nothing more to send.
    }
    if (!res.writableEnded) res.end();
  }

  /** Aborts open modern exchanges (listen streams included) and closes their server instances. */
  close(): Promise<void> {
    return this.handler.close();
  }
}
