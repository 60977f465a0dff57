// Shared runner for the example server binaries: stdio by default, or Streamable HTTP on
// 127.0.0.1 with `--http <port>` (stateful sessions, one fresh server instance per session).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

/** How the runner was asked to serve. */
export type ServeMode = { kind: 'stdio' } | { kind: 'http'; port: number };

/** A running HTTP endpoint. */
export interface HttpEndpoint {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  port: number;
  /** Closes every session and the listening socket. */
  close(): Promise<void>;
}

/** Parses the runner's arguments: nothing (stdio) or `--http <port>` (0 picks a free port). */
export function parseServeArgs(argv: readonly string[]): ServeMode {
  if (argv.length === 0) return { kind: 'stdio' };
  if (argv[0] === '--http' && argv.length === 2 && /^\d+$/.test(argv[1]!)) {
    const port = Number(argv[1]);
    if (port <= 65535) return { kind: 'http', port };
  }
  throw new Error(`usage: [--http <port>] (port 0-65535, 0 picks a free port); got: ${argv.join(' ')}`);
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text.length === 0 ? undefined : JSON.parse(text);
}

function sendJsonRpcError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * Serves `factory()` over Streamable HTTP on 127.0.0.1:`port` at `/mcp`. Each initialize request
 * opens a session with its own server instance; later requests carry `mcp-session-id`.
 */
export async function serveHttp(factory: () => McpServer, port: number): Promise<HttpEndpoint> {
  // Loaded here, not at import: a server binary in stdio mode never needs it (~50 ms per start).
  const { StreamableHTTPServerTransport: HttpTransport } =
    require('@modelcontextprotocol/sdk/server/streamableHttp.js') as {
      StreamableHTTPServerTransport: typeof StreamableHTTPServerTransport;
    };
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const sessionHeader = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    const existing = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (existing) {
      const body = req.method === 'POST' ? await readJsonBody(req) : undefined;
      await existing.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST') {
      sendJsonRpcError(res, sessionId === undefined ? 400 : 404, 'unknown or missing session');
      return;
    }
    let body: unknown;
    try {
      body = await readJsonBody(req);
    } catch {
      sendJsonRpcError(res, 400, 'request body is not JSON');
      return;
    }
    if (sessionId !== undefined || !isInitializeRequest(body)) {
      sendJsonRpcError(res, sessionId === undefined ? 400 : 404, 'unknown or missing session');
      return;
    }
    const server = factory();
    const transport: StreamableHTTPServerTransport = new HttpTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJsonRpcError(res, 500, 'internal server error');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolve());
  });
  const actualPort = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}/mcp`,
    port: actualPort,
    close: async () => {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(open.map((s) => s.server.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * Runs a server binary: stdio by default, `--http <port>` for Streamable HTTP (prints
 * `listening on <url>` once ready). Exits cleanly on SIGTERM/SIGINT and when stdin closes (stdio).
 */
export async function runServer(
  factory: () => McpServer,
  argv: readonly string[] = process.argv.slice(2),
): Promise<void> {
  let mode: ServeMode;
  try {
    mode = parseServeArgs(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  if (mode.kind === 'stdio') {
    const server = factory();
    const stop = (): void => {
      server.close().finally(() => process.exit(0));
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    process.stdin.once('end', stop);
    const { StdioServerTransport: StdioTransport } = require('@modelcontextprotocol/sdk/server/stdio.js') as {
      StdioServerTransport: typeof StdioServerTransport;
    };
    await server.connect(new StdioTransport());
    return;
  }
  const endpoint = await serveHttp(factory, mode.port);
  const stop = (): void => {
    endpoint.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stdout.write(`listening on ${endpoint.url}\n`);
}
