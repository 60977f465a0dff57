import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { parseJsonBody, readBody, sendJson } from '../fakeHttp';
import type { TestAuthorizationServer } from './TestAuthorizationServer';

/** How the protected MCP server is guarded. */
export interface ProtectedMcpServerOptions {
  authorizationServer: TestAuthorizationServer;
  /** A fresh SDK server per request (the endpoint is stateless). */
  factory: () => McpServer | Server;
  /** Scopes every request needs (named in the 401 challenge). */
  scopes?: string[];
  /** Extra scopes `tools/call` of a tool needs: missing ones get 403 `insufficient_scope` (step-up). */
  toolScopes?: Record<string, string[]>;
  /** Put `scope` in the 401 challenge (default true). */
  challengeScope?: boolean;
  /** Protected resource metadata overrides, for bad-input tests: another `resource`, other servers. */
  resourceMetadata?: { resource?: string; authorizationServers?: string[]; scopesSupported?: string[] };
}

/**
 * An MCP server (Streamable HTTP, stateless) on 127.0.0.1 guarded by a `TestAuthorizationServer`:
 * RFC 9728 protected resource metadata at `/.well-known/oauth-protected-resource/mcp`, 401 with a
 * `WWW-Authenticate` challenge without a valid token, 403 `insufficient_scope` for tools whose
 * scopes the token lacks, and tokens checked for this resource. `url` is the MCP endpoint.
 */
export class ProtectedMcpServer {
  /** Statuses the MCP endpoint answered, in order. */
  readonly statuses: number[] = [];
  private readonly options: ProtectedMcpServerOptions;
  private server: HttpServer | undefined;
  private origin: string | undefined;

  constructor(options: ProtectedMcpServerOptions) {
    this.options = options;
  }

  /** Starts listening; returns the MCP endpoint URL. */
  async start(): Promise<string> {
    if (this.origin !== undefined) return this.url;
    const server = createServer(
      (req, res) => void this.handle(req, res).catch(() => sendJson(res, 500, { error: 'server_error' })),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    this.server = server;
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.url;
  }

  /** The MCP endpoint (`http://127.0.0.1:<port>/mcp`). */
  get url(): string {
    if (this.origin === undefined) throw new Error('ProtectedMcpServer is not started: await server.start() first');
    return `${this.origin}/mcp`;
  }

  /** The protected resource metadata URL named in challenges. */
  get resourceMetadataUrl(): string {
    return `${this.origin ?? ''}/.well-known/oauth-protected-resource/mcp`;
  }

  /** Stops listening; idempotent. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private challenge(res: ServerResponse, status: 401 | 403, scopes: string[], error?: string): void {
    const parts = [`resource_metadata="${this.resourceMetadataUrl}"`];
    if (error !== undefined) parts.unshift(`error="${error}"`);
    if (scopes.length > 0 && (status === 403 || this.options.challengeScope !== false))
      parts.push(`scope="${scopes.join(' ')}"`);
    this.statuses.push(status);
    sendJson(res, status, { error: error ?? 'invalid_token' }, { 'www-authenticate': `Bearer ${parts.join(', ')}` });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) {
      const meta = this.options.resourceMetadata ?? {};
      const scopesSupported = meta.scopesSupported ?? this.options.authorizationServer.scopesSupported;
      return sendJson(res, 200, {
        resource: meta.resource ?? this.url,
        authorization_servers: meta.authorizationServers ?? [this.options.authorizationServer.issuer],
        ...(scopesSupported !== undefined && { scopes_supported: scopesSupported }),
        bearer_methods_supported: ['header'],
      });
    }
    if (url.pathname !== '/mcp') return sendJson(res, 404, { error: 'not_found' });
    const body = req.method === 'POST' ? parseJsonBody(await readBody(req)) : undefined;
    const base = this.options.scopes ?? [];
    const header = req.headers.authorization ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const grant = token !== undefined ? this.options.authorizationServer.introspect(token) : undefined;
    if (grant === undefined || (grant.resource !== undefined && grant.resource !== this.url)) {
      return this.challenge(res, 401, base, token !== undefined ? 'invalid_token' : undefined);
    }
    const messages = Array.isArray(body) ? body : [body];
    const toolScopes = messages.flatMap((message) => {
      const m = message as { method?: unknown; params?: { name?: unknown } } | null;
      return m?.method === 'tools/call' ? (this.options.toolScopes?.[String(m.params?.name)] ?? []) : [];
    });
    const needed = [...new Set([...base, ...toolScopes])];
    if (!needed.every((scope) => grant.scopes.includes(scope))) {
      return this.challenge(
        res,
        toolScopes.length > 0 ? 403 : 401,
        needed,
        toolScopes.length > 0 ? 'insufficient_scope' : 'invalid_token',
      );
    }
    this.statuses.push(200);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = this.options.factory();
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }
}
