// A server built with the official SDK v2 (`@modelcontextprotocol/server` behind
// `@modelcontextprotocol/node`) served over Streamable HTTP on 127.0.0.1, wrapped by a plain
// `node:http` server that records every raw request (method, path, headers, body text) before
// the SDK sees it. The 2026-07-28 client conformance tests read what went on the wire from it.
// It also serves a canary document (`canaryUrl`) and counts fetches of it, so a test can prove the
// client never dereferenced a remote `$ref` (docs/contract.md §23).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer, Server } from '@modelcontextprotocol/server';
import { HTTPServer } from '../../servers/HTTPServer';
import type { ProtocolSetting } from '../../servers/protocolSetting';

/** One request as it arrived on the wire. */
export interface WireRequest {
  readonly httpMethod: string;
  readonly path: string;
  /** Header names lower-cased, as Node parses them. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body exactly as sent (UTF-8 text). */
  readonly body: string;
  /** The response body as the server wrote it (JSON or SSE text); filled when the response ends. */
  response: string;
}

/** A JSON-RPC request or notification parsed from a recorded POST body. */
export interface WireMessage {
  readonly id?: string | number;
  readonly method: string;
  readonly params?: Record<string, unknown> & { _meta?: Record<string, unknown> };
}

/** A running recording server. */
export interface RecordingV2Server {
  /** The MCP endpoint (`http://127.0.0.1:PORT/mcp`). */
  readonly url: string;
  /** A URL on the same server that a schema can point a remote `$ref` at. */
  readonly canaryUrl: string;
  /** Every request to the MCP endpoint, in arrival order. */
  readonly requests: readonly WireRequest[];
  /** How often the canary URL was fetched. */
  canaryFetches(): number;
  /** The POST requests to the MCP endpoint paired with their parsed JSON-RPC message. */
  posts(): { request: WireRequest; message: WireMessage }[];
  /** An `HTTPServer` definition for the endpoint. */
  definition(protocol?: ProtocolSetting): HTTPServer;
  /** Answers the next `count` POSTs with an unsupported-protocol-version error instead of the SDK. */
  rejectNextVersions(count: number, supported: readonly string[]): void;
  close(): Promise<void>;
}

/** How the SDK serves 2025-era traffic: `reject` = modern-only, `stateless` = both eras. */
export type LegacyServing = 'reject' | 'stateless';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Copies what the server writes into `record.response`, passing every write through. */
function teeResponse(res: ServerResponse, record: WireRequest): void {
  const chunks: Buffer[] = [];
  const keep = (chunk: unknown): void => {
    if (typeof chunk === 'string') chunks.push(Buffer.from(chunk, 'utf8'));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk);
    return write(chunk, ...rest);
  }) as ServerResponse['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== 'function') keep(chunk);
    record.response = Buffer.concat(chunks).toString('utf8');
    return end(chunk, ...rest);
  }) as ServerResponse['end'];
}

function parseMessage(body: string): WireMessage {
  return JSON.parse(body) as WireMessage;
}

/** Starts `factory` (one SDK v2 server per request, as `createMcpHandler` wants) behind the recorder. */
export async function startRecordingV2Server(
  factory: () => McpServer | Server,
  legacy: LegacyServing = 'reject',
): Promise<RecordingV2Server> {
  const { createMcpHandler } = require('@modelcontextprotocol/server') as typeof import('@modelcontextprotocol/server');
  const { toNodeHandler } = require('@modelcontextprotocol/node') as typeof import('@modelcontextprotocol/node');
  const mcpHandler = createMcpHandler(() => factory(), { legacy });
  const handler = toNodeHandler(mcpHandler);
  const requests: WireRequest[] = [];
  let canary = 0;
  let rejections: { count: number; supported: readonly string[] } = { count: 0, supported: [] };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      if (req.url === '/canary/schema.json') {
        canary += 1;
        res.writeHead(200, { 'content-type': 'application/schema+json' }).end('{"type":"string"}');
        return;
      }
      if (req.url !== '/mcp') {
        res.writeHead(404).end();
        return;
      }
      const body = await readBody(req);
      const record: WireRequest = {
        httpMethod: req.method ?? '',
        path: req.url,
        headers: { ...req.headers },
        body,
        response: '',
      };
      requests.push(record);
      teeResponse(res, record);
      if (req.method === 'POST' && rejections.count > 0) {
        rejections = { ...rejections, count: rejections.count - 1 };
        const message = parseMessage(body);
        const requested = req.headers['mcp-protocol-version'];
        res.writeHead(400, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id ?? null,
            error: {
              code: -32022,
              message: 'Unsupported protocol version',
              data: { supported: rejections.supported, requested: String(requested ?? '') },
            },
          }),
        );
        return;
      }
      // The SDK reads the body we already consumed from `parsedBody`.
      await handler(req, res, body === '' ? undefined : JSON.parse(body));
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/mcp`;
  return {
    url,
    canaryUrl: `http://127.0.0.1:${port}/canary/schema.json`,
    requests,
    canaryFetches: () => canary,
    posts: () =>
      requests
        .filter((r) => r.httpMethod === 'POST' && r.body !== '')
        .map((request) => ({ request, message: parseMessage(request.body) })),
    definition: (protocol) => new HTTPServer({ name: 'recorded-v2', url, ...(protocol !== undefined && { protocol }) }),
    rejectNextVersions: (count, supported) => {
      rejections = { count, supported };
    },
    close: async () => {
      await mcpHandler.close();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
