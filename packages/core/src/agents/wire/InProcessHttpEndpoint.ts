import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { TransportStartupError } from '../../errors';
import type { ProxyToolPolicy } from '../../proxy/toolPolicy';
import { redactedCause } from '../../redaction/redactedCause';
import type { Redactor } from '../../redaction/Redactor';
import type { InProcessServer, SdkServer } from '../../servers/InProcessServer';
import type { TraceRecorder } from '../../trace/TraceRecorder';
import { HttpWireProxy, type HttpAgentDescriptor } from './HttpWireProxy';
import { listenOnLoopback, sendJsonRpcError } from './httpRelay';
import type { WireScope } from './WireEventWriter';

/** Bound on closing one hosted server (as for in-process connections). */
const CLOSE_TIMEOUT_MS = 3000;

interface HostedSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: SdkServer;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text.length === 0 ? undefined : JSON.parse(text);
}

/**
 * An `InProcessServer` made reachable for an agent: each session (each `initialize`) gets a fresh
 * server from the factory on a loopback Streamable HTTP endpoint (SDK server transport, unguessable
 * path), and the agent is pointed at an `HttpWireProxy` in front of it, which records the wire and
 * enforces the tool policy exactly as for a remote HTTP server.
 */
export class InProcessHttpEndpoint {
  private readonly sessions = new Map<string, HostedSession>();
  private readonly starting = new Set<HostedSession>();
  private proxy: HttpWireProxy | undefined;
  private closing: Promise<boolean> | undefined;
  private factoryError: TransportStartupError | undefined;

  private constructor(
    private readonly server: InProcessServer,
    private readonly redactor: Redactor,
    private readonly http: Server,
    private readonly path: string,
  ) {}

  /** Hosts the factory on 127.0.0.1 and starts the reverse proxy in front of it. */
  static async start(options: {
    server: InProcessServer;
    policy: ProxyToolPolicy;
    recorder: TraceRecorder;
    redactor: Redactor;
    scope: WireScope;
  }): Promise<InProcessHttpEndpoint> {
    const path = `/${randomBytes(16).toString('hex')}/mcp`;
    const ready: { endpoint?: InProcessHttpEndpoint } = {};
    const http = createServer((req, res) => {
      if (ready.endpoint === undefined) return sendJsonRpcError(res, 503, 'starting');
      ready.endpoint.handle(req, res).catch(() => sendJsonRpcError(res, 500, 'the in-process server failed'));
    });
    const port = await listenOnLoopback(http);
    const endpoint = new InProcessHttpEndpoint(options.server, options.redactor, http, path);
    ready.endpoint = endpoint;
    try {
      endpoint.proxy = await HttpWireProxy.listen({
        name: options.server.name,
        target: new URL(`http://127.0.0.1:${port}${path}`),
        headers: {},
        policy: options.policy,
        recorder: options.recorder,
        scope: options.scope,
        transportKind: 'in_process',
      });
    } catch (error) {
      await endpoint.close();
      throw error;
    }
    return endpoint;
  }

  get name(): string {
    return this.server.name;
  }

  /** The reverse proxy's descriptor (the hosted endpoint itself is never handed out). */
  get descriptor(): HttpAgentDescriptor {
    return this.proxy!.descriptor;
  }

  /** Nothing to read: the reverse proxy records as messages pass. */
  sync(): Promise<void> {
    return Promise.resolve();
  }

  /** Stops the proxy, closes every hosted server and the listener; never throws. */
  close(): Promise<boolean> {
    this.closing ??= (async () => {
      const proxyClosed = (await this.proxy?.close()) ?? true;
      const hosted = [...this.sessions.values(), ...this.starting];
      this.sessions.clear();
      this.starting.clear();
      await Promise.all(
        hosted.map((s) =>
          Promise.race([
            s.server.close().catch(() => undefined),
            new Promise((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS).unref()),
          ]),
        ),
      );
      this.http.closeAllConnections();
      const closed = await new Promise<boolean>((resolve) => this.http.close((error) => resolve(error === undefined)));
      return proxyClosed && (closed || !this.http.listening);
    })();
    return this.closing;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== this.path) {
      res.writeHead(404).end();
      return;
    }
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    const existing = sessionId === undefined ? undefined : this.sessions.get(sessionId);
    let body: unknown;
    try {
      body = req.method === 'POST' ? await readJson(req) : undefined;
    } catch {
      return sendJsonRpcError(res, 400, 'request body is not JSON');
    }
    if (existing !== undefined) {
      await existing.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST' || sessionId !== undefined || !isInitializeRequest(body)) {
      return sendJsonRpcError(res, sessionId === undefined ? 400 : 404, 'unknown or missing session');
    }
    const server = await this.build();
    if (server === undefined) return sendJsonRpcError(res, 500, this.factoryError!.message);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.starting.delete(session);
        this.sessions.set(id, session);
      },
    });
    const session: HostedSession = { transport, server };
    this.starting.add(session);
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /** A fresh server from the factory, or undefined (with `factoryError` set) when it failed. */
  private async build(): Promise<SdkServer | undefined> {
    try {
      const built = await this.server.factory({ era: 'legacy' });
      if (typeof (built as { connect?: unknown })?.connect !== 'function') throw new TypeError('not an SDK server');
      return built;
    } catch (error) {
      this.factoryError = new TransportStartupError(
        `in-process server ${this.server.name} could not start: its factory failed or returned something that is not an McpServer or Server`,
        { server: this.server.name },
        { cause: redactedCause(error, this.redactor) },
      );
      return undefined;
    }
  }
}
