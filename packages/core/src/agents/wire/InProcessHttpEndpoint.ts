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
import { isModernSdkServer } from '../../transport/openInProcessTransport';
import type { McpServerTape } from '../../cassettes/servers/McpServerTape';
import { HttpWireProxy, type HttpAgentDescriptor } from './HttpWireProxy';
import { listenOnLoopback, sendJsonRpcError } from './httpRelay';
import { ModernHttpLeg } from './ModernHttpLeg';
import type { WireScope } from './WireEventWriter';

/** Bound on closing one hosted server (as for in-process connections). */
const CLOSE_TIMEOUT_MS = 3000;

interface HostedSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: SdkServer;
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * An `InProcessServer` made reachable for an agent: each session (each `initialize`) gets a fresh
 * server from the factory on a loopback Streamable HTTP endpoint (SDK server transport, unguessable
 * path), and the agent is pointed at an `HttpWireProxy` in front of it, which records the wire and
 * enforces the tool policy exactly as for a remote HTTP server. A factory that builds SDK v2
 * servers is served in both eras (contract §23): the requests the SDK classifies as 2026-07-28
 * go to its own per-request handler (`ModernHttpLeg`, the factory called with `{ era: 'modern' }`),
 * the 2025 ones to the sessions as before (`{ era: 'legacy' }`).
 */
export class InProcessHttpEndpoint {
  private readonly sessions = new Map<string, HostedSession>();
  private readonly starting = new Set<HostedSession>();
  private proxy: HttpWireProxy | undefined;
  private closing: Promise<boolean> | undefined;
  private factoryError: TransportStartupError | undefined;
  /** The 2026-07-28 leg, null for a v1 factory; settled by the first request. */
  private modern: Promise<ModernHttpLeg | null> | undefined;
  /** The server built to tell the factory's SDK apart, kept for the first legacy session. */
  private spare: SdkServer | undefined;

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
    tape?: McpServerTape;
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
        ...(options.tape !== undefined && { tape: options.tape }),
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
      const leg = await this.modern?.catch(() => null);
      await leg?.close().catch(() => undefined);
      const hosted = [...this.sessions.values(), ...this.starting];
      if (this.spare !== undefined) hosted.push({ server: this.spare } as HostedSession);
      this.spare = undefined;
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
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== this.path) {
      res.writeHead(404).end();
      return;
    }
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    const existing = sessionId === undefined ? undefined : this.sessions.get(sessionId);
    const text = req.method === 'POST' ? await readText(req) : '';
    let body: unknown;
    try {
      body = text.length === 0 ? undefined : JSON.parse(text);
    } catch {
      return sendJsonRpcError(res, 400, 'request body is not JSON');
    }
    if (existing !== undefined) {
      await existing.transport.handleRequest(req, res, body);
      return;
    }
    const modern = await this.modernLeg();
    if (modern !== null && (await modern.claims(req, url, body))) {
      await modern.serve(req, res, url, text);
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

  /**
   * The 2026-07-28 leg when the factory builds SDK v2 servers (told by the first server it builds,
   * which is kept for the first legacy session), else null.
   */
  private modernLeg(): Promise<ModernHttpLeg | null> {
    this.modern ??= (async () => {
      const first = await this.build();
      if (first === undefined) {
        // Tried again on the next request; this one is answered with the factory's error.
        this.modern = undefined;
        return null;
      }
      this.spare = first;
      if (!isModernSdkServer(first)) return null;
      const factory = this.server.factory;
      return ModernHttpLeg.create((context) => factory(context));
    })();
    return this.modern;
  }

  /** A fresh server from the factory, or undefined (with `factoryError` set) when it failed. */
  private async build(): Promise<SdkServer | undefined> {
    if (this.spare !== undefined) {
      const spare = this.spare;
      this.spare = undefined;
      return spare;
    }
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
