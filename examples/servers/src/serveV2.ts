// Runner for example servers built on the SDK v2: the SDK's own era routers serve both protocol
// eras from one factory — `serveStdio` over stdio, `createMcpHandler` over Streamable HTTP on
// 127.0.0.1 — or only 2026-07-28 with `--modern-only` (the SDK's `legacy: 'reject'`).
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type McpServerFactory } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { HttpEndpoint } from './serve';

/** How the v2 runner was asked to serve. */
export interface V2ServeMode {
  transport: { kind: 'stdio' } | { kind: 'http'; port: number };
  /** `true` with `--modern-only`: 2025-era requests are refused (`legacy: 'reject'`). */
  modernOnly: boolean;
}

const USAGE = 'usage: [--http <port>] [--modern-only] (port 0-65535, 0 picks a free port)';

/** Parses `[--http <port>] [--modern-only]` in any order. */
export function parseV2ServeArgs(argv: readonly string[]): V2ServeMode {
  let transport: V2ServeMode['transport'] = { kind: 'stdio' };
  let modernOnly = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--modern-only' && !modernOnly) {
      modernOnly = true;
    } else if (arg === '--http' && transport.kind === 'stdio' && /^\d+$/.test(argv[i + 1] ?? '')) {
      const port = Number(argv[i + 1]);
      if (port > 65535) throw new Error(`${USAGE}; got: ${argv.join(' ')}`);
      transport = { kind: 'http', port };
      i += 1;
    } else {
      throw new Error(`${USAGE}; got: ${argv.join(' ')}`);
    }
  }
  return { transport, modernOnly };
}

/**
 * Serves `factory` over Streamable HTTP on 127.0.0.1:`port` at `/mcp` through the SDK's
 * `createMcpHandler`: a 2026-07-28 request gets a fresh instance, a 2025 one the stateless legacy
 * fallback (or a refusal when `modernOnly`).
 */
export async function serveV2Http(factory: McpServerFactory, port: number, modernOnly = false): Promise<HttpEndpoint> {
  const handler = toNodeHandler(createMcpHandler(factory, { legacy: modernOnly ? 'reject' : 'stateless' }));
  const http: HttpServer = createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    handler(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
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
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * Runs a v2 server binary: stdio by default, `--http <port>` for Streamable HTTP (prints
 * `listening on <url>` once ready), `--modern-only` to refuse the 2025 era.
 */
export async function runV2Server(
  factory: McpServerFactory,
  argv: readonly string[] = process.argv.slice(2),
): Promise<void> {
  let mode: V2ServeMode;
  try {
    mode = parseV2ServeArgs(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  const legacy = mode.modernOnly ? 'reject' : 'serve';
  if (mode.transport.kind === 'stdio') {
    const handle = serveStdio(factory, { legacy });
    const stop = (): void => {
      handle.close().finally(() => process.exit(0));
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    process.stdin.once('end', stop);
    return;
  }
  const endpoint = await serveV2Http(factory, mode.transport.port, mode.modernOnly);
  const stop = (): void => {
    endpoint.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stdout.write(`listening on ${endpoint.url}\n`);
}
