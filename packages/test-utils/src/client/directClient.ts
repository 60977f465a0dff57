// Real SDK servers for the direct-client tests: a feature server built with McpServer (progress,
// slow calls, tool errors, protocol errors, output schemas, server-to-client requests, logs) and a
// low-level paginated server (cursors, a repeated cursor, malformed results).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { DirectClient } from '../../../core/src/client/DirectClient';
import { MCPTestKit, type MCPTestKitOptions } from '../../../core/src/kit/MCPTestKit';
import type { TraceEvent } from '../../../core/src/trace/Event';

/** Absolute path of the stdio fixture server script (CommonJS, uses the SDK). */
export const STDIO_FIXTURE = join(__dirname, '../../../core/src/client/__fixtures__/stdio-fixture-server.js');

/** The `@modelcontextprotocol/server-everything` entry, run with the `stdio` argument. */
export const SERVER_EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** A server exercising every callback path of the direct client. */
export function createFeatureServer(): McpServer {
  const mcp = new McpServer(
    { name: 'feature-server', version: '2.0.0' },
    { instructions: 'feature fixture', capabilities: { logging: {} } },
  );
  mcp.registerTool('echo', { description: 'Echoes its text', inputSchema: { text: z.string() } }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  mcp.registerTool(
    'add',
    {
      description: 'Adds two numbers',
      inputSchema: { a: z.number(), b: z.number().min(0) },
      outputSchema: { sum: z.number() },
    },
    ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  mcp.registerTool('fail', { description: 'Always a tool error', inputSchema: {} }, () => ({
    content: [{ type: 'text', text: 'expected failure' }],
    isError: true,
  }));
  mcp.registerTool('protocol_error', { description: 'Throws a JSON-RPC error', inputSchema: {} }, () => {
    throw new McpError(ErrorCode.InvalidParams, 'bad widget id');
  });
  mcp.registerTool(
    'slow',
    { description: 'Sleeps, reporting progress', inputSchema: { ms: z.number(), steps: z.number().optional() } },
    async ({ ms, steps }, extra) => {
      const count = steps ?? 0;
      const token = extra._meta?.progressToken;
      for (let i = 1; i <= count; i += 1) {
        if (token !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: i, total: count, message: `step ${i}` },
          });
        }
      }
      await sleep(ms, extra.signal);
      return { content: [{ type: 'text', text: `slept ${ms}` }] };
    },
  );
  mcp.registerTool('ask', { description: 'Elicits a name', inputSchema: {} }, async () => {
    const answer = await mcp.server.elicitInput({
      message: 'What is your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    const name = answer.action === 'accept' ? String(answer.content?.name) : answer.action;
    return { content: [{ type: 'text', text: `hello ${name}` }] };
  });
  mcp.registerTool('sample', { description: 'Asks the client LLM', inputSchema: {} }, async () => {
    const reply = await mcp.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: 'say hi' } }],
      maxTokens: 10,
    });
    const text = !Array.isArray(reply.content) && reply.content.type === 'text' ? reply.content.text : '?';
    return { content: [{ type: 'text', text: `model said ${text}` }] };
  });
  mcp.registerTool('roots', { description: 'Lists client roots', inputSchema: {} }, async () => {
    const { roots } = await mcp.server.listRoots();
    return { content: [{ type: 'text', text: roots.map((r) => r.uri).join(',') }] };
  });
  mcp.registerTool(
    'log',
    { description: 'Sends a log message', inputSchema: { text: z.string() } },
    async ({ text }) => {
      await mcp.sendLoggingMessage({ level: 'warning', logger: 'fixture', data: text });
      return { content: [{ type: 'text', text: 'logged' }] };
    },
  );
  return mcp;
}

const COUNT_TOOL = {
  name: 'count',
  inputSchema: {
    type: 'object' as const,
    properties: { n: { type: 'integer', minimum: 1 } },
    required: ['n'],
  },
};
const LIAR_TOOL = {
  name: 'liar',
  inputSchema: { type: 'object' as const },
  outputSchema: { type: 'object' as const, properties: { sum: { type: 'number' } }, required: ['sum'] },
};

/** An output schema no JSON Schema validator can compile. */
const BROKEN_OUTPUT_SCHEMA = { type: 'object' as const, properties: { sum: { type: 'not-a-type' } } };

/** How the paginated server misbehaves. */
export type PagedMode = 'ok' | 'repeat-cursor' | 'malformed' | 'broken-schema';

/** A low-level server whose tools, resources, templates and prompts come in two pages each. */
export function createPagedServer(mode: PagedMode = 'ok'): Server {
  const server = new Server(
    { name: 'paged-server', version: '1.0.0' },
    { capabilities: { tools: {}, resources: {}, prompts: {} } },
  );
  const next = (cursor: string | undefined): string | undefined => {
    if (cursor === undefined) return 'page-2';
    return mode === 'repeat-cursor' ? 'page-2' : undefined;
  };
  const page = (cursor: string | undefined): number => (cursor === undefined ? 1 : 2);
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    if (mode === 'malformed') return { tools: 'not-a-list' } as never;
    const cursor = request.params?.cursor;
    const liar = mode === 'broken-schema' ? { ...LIAR_TOOL, outputSchema: BROKEN_OUTPUT_SCHEMA } : LIAR_TOOL;
    return { tools: cursor === undefined ? [COUNT_TOOL] : [liar], nextCursor: next(cursor) };
  });
  // `count` wants { n: integer >= 1 }; `liar` (listed on page 2) promises { sum: number } but lies.
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    if (request.params.name === 'liar') {
      return { content: [{ type: 'text', text: 'lie' }], structuredContent: { sum: 'not-a-number' } };
    }
    return { content: [{ type: 'text', text: `count ${String(request.params.arguments?.n)}` }] };
  });
  server.setRequestHandler(ListResourcesRequestSchema, (request) => {
    const cursor = request.params?.cursor;
    return { resources: [{ name: `r${page(cursor)}`, uri: `memory://r${page(cursor)}` }], nextCursor: next(cursor) };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => {
    const cursor = request.params?.cursor;
    return {
      resourceTemplates: [{ name: `t${page(cursor)}`, uriTemplate: `memory://t${page(cursor)}/{id}` }],
      nextCursor: next(cursor),
    };
  });
  server.setRequestHandler(ListPromptsRequestSchema, (request) => {
    const cursor = request.params?.cursor;
    return { prompts: [{ name: `p${page(cursor)}` }], nextCursor: next(cursor) };
  });
  return server;
}

/**
 * Starts a fixture server's `slow` tool and resolves once the server is running it (its progress
 * notification arrived), so a close that follows finds the call in flight on any machine, however
 * loaded. `call` is the call's rejection (see `rejection`).
 */
export async function slowCallInFlight(
  client: Pick<DirectClient, 'callTool'>,
  args: { ms: number; steps?: number },
): Promise<{ call: Promise<Error> }> {
  let running!: () => void;
  const started = new Promise<void>((resolve) => (running = resolve));
  const call = rejection(client.callTool('slow', args, { onProgress: () => running() }));
  await Promise.race([started, call]);
  return { call };
}

/** True while a process with this pid exists. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Waits until the pid is gone (or the time is up); returns whether it is gone. */
export async function waitForExit(pid: number, ms = 5_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!pidAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !pidAlive(pid);
}

/** A loopback Streamable HTTP endpoint started by a test. */
export interface LoopbackEndpoint {
  readonly url: string;
  /** Authorization headers the endpoint received, in order. */
  readonly authorizations: string[];
  close(): Promise<void>;
}

/**
 * Serves `factory()` servers over Streamable HTTP on 127.0.0.1 (one server per MCP session),
 * with the SDK's `StreamableHTTPServerTransport`. With `token`, requests without
 * `Authorization: Bearer <token>` get 401.
 */
export async function startLoopbackHttp(
  factory: () => McpServer,
  options: { token?: string } = {},
): Promise<LoopbackEndpoint> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const authorizations: string[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const auth = req.headers.authorization ?? '';
      authorizations.push(auth);
      if (options.token !== undefined && auth !== `Bearer ${options.token}`) {
        res.writeHead(401).end();
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text.length > 0 ? JSON.parse(text) : undefined;
      const header = req.headers['mcp-session-id'];
      const sessionId = Array.isArray(header) ? header[0] : header;
      let transport = sessionId !== undefined ? sessions.get(sessionId) : undefined;
      if (transport === undefined) {
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            sessions.set(id, created);
          },
        });
        transport = created;
        await factory().connect(created);
      }
      await transport.handleRequest(req, res, body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authorizations,
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => undefined)));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The kinds of `events`, in order. */
export const kinds = (events: readonly TraceEvent[]): string[] => events.map((e) => e.kind);

/** The request events of one MCP method (`tools/call` is recorded as `tool.call_requested`). */
export const requests = (events: readonly TraceEvent[], method: string): TraceEvent[] =>
  events.filter((e) => (e.kind === 'mcp.request' || e.kind === 'tool.call_requested') && e.payload.method === method);

/** The error `promise` rejects with; fails when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the promise to reject');
}

/**
 * A fresh kit for every test of the calling file (made in `beforeEach`, closed in `afterEach`);
 * call the returned function inside a test to get the current one.
 */
export function useKitPerTest(options: MCPTestKitOptions): () => MCPTestKit {
  let kit: MCPTestKit | undefined;
  beforeEach(() => {
    kit = new MCPTestKit(options);
  });
  afterEach(async () => {
    await kit?.close();
    kit = undefined;
  });
  return () => {
    if (kit === undefined) throw new Error('useKitPerTest: the kit exists only inside a test');
    return kit;
  };
}
