import type { ServerCassettes } from '../../cassettes/servers/ServerCassettes';
import { ModelValidationError, OperationCancelled } from '../../errors';
import type { M3Logger } from '../../logging/logger';
import type { ProxyToolPolicy } from '../../proxy/toolPolicy';
import type { Redactor } from '../../redaction/Redactor';
import type { ServerDefinition } from '../../servers/ServerDefinition';
import type { TraceRecorder } from '../../trace/TraceRecorder';
import { HttpWireProxy } from './HttpWireProxy';
import { InProcessHttpEndpoint } from './InProcessHttpEndpoint';
import { StdioWireProxy } from './StdioWireProxy';

/** An MCP server as an agent is told about it (ACP `session/new` mcpServers item shape). */
export type AgentMcpServerDescriptor =
  | { name: string; command: string; args: string[]; env: Array<{ name: string; value: string }> }
  | { type: 'http'; name: string; url: string; headers: Array<{ name: string; value: string }> };

/** What an `AgentServerGroup` proxies and where it records. */
export interface AgentServerGroupOptions {
  /** Stdio / HTTP / InProcess definitions of the run. */
  servers: readonly ServerDefinition[];
  /** Per server name (`agentOptions.resolveRunOptions`); a missing entry allows every tool. */
  policies: ReadonlyMap<string, ProxyToolPolicy>;
  /** The execution's recorder. */
  recorder: TraceRecorder;
  redactor: Redactor;
  logger: M3Logger;
  /** Current session/turn for recorded events. */
  scope: () => { sessionId?: string; turnId?: string };
  /**
   * The servers' side on the cassette (contract §24, `cassettes: { servers: true }`): every server's
   * exchanges are recorded, or replayed without starting the server (stdio) or reaching its URL
   * (HTTP; an in-process server is hosted but not reached).
   */
  cassettes?: ServerCassettes | null;
}

/** One proxied server: what the agent is given, how its capture is read, how it is stopped. */
interface WireProxy {
  readonly name: string;
  readonly descriptor: AgentMcpServerDescriptor;
  sync(): Promise<void>;
  /** The capture file and pids of a stdio proxy (undefined for HTTP). */
  captureInfo?(): WireCaptureInfo;
  /** Resolves false when something could not be cleaned up; never throws. */
  close(): Promise<boolean>;
}

/** Where a stdio proxy captures and which processes it reported (for diagnostics and tests). */
export interface WireCaptureInfo {
  readonly server: string;
  readonly capturePath: string;
  readonly proxyPid: number | null;
  readonly serverPid: number | null;
}

const ALLOW_ALL: ProxyToolPolicy = { mode: 'allow_all' };

/**
 * The MCP servers of one agent execution, each behind the kit's capture layer, which is the
 * wire-evidence authority and enforces the tool policy: stdio servers behind the capture proxy
 * script (config in a one-shot 0600 file), HTTP servers behind a loopback reverse proxy that adds
 * their headers itself, in-process servers on a loopback Streamable HTTP endpoint behind the same
 * reverse proxy. Descriptors never hold a secret.
 */
export class AgentServerGroup {
  private readonly options: AgentServerGroupOptions;
  private readonly proxies: WireProxy[] = [];
  private starting: Promise<AgentMcpServerDescriptor[]> | undefined;
  private closing: Promise<void> | undefined;

  constructor(options: AgentServerGroupOptions) {
    const names = options.servers.map((s) => s.name);
    if (new Set(names).size !== names.length) {
      throw new ModelValidationError('agent servers must have distinct names: rename one of them');
    }
    this.options = options;
  }

  /**
   * Prepares proxies: stdio → capture proxy command (config in a one-shot 0600 file, secrets only
   * there, never in the descriptor); HTTP → a loopback reverse proxy that adds the server's headers
   * itself; InProcess → served on a loopback Streamable HTTP endpoint behind the same recording.
   * Records `process.started`/`transport.connected`-style facts it knows. Returns descriptors in
   * the order of `servers`. On failure everything prepared so far is closed before it throws.
   */
  start(signal: AbortSignal): Promise<AgentMcpServerDescriptor[]> {
    this.starting ??= this.startAll(signal);
    return this.starting;
  }

  private async startAll(signal: AbortSignal): Promise<AgentMcpServerDescriptor[]> {
    try {
      for (const server of this.options.servers) {
        if (signal.aborted || this.closing !== undefined) {
          throw new OperationCancelled('starting the MCP capture proxies was cancelled', { server: server.name });
        }
        this.proxies.push(await this.prepare(server));
      }
    } catch (error) {
      await this.closeProxies();
      throw error;
    }
    return this.proxies.map((p) => p.descriptor);
  }

  private async prepare(server: ServerDefinition): Promise<WireProxy> {
    const { recorder, redactor, scope } = this.options;
    const policy = this.options.policies.get(server.name) ?? ALLOW_ALL;
    const tape = this.options.cassettes?.forServer(server.name);
    const taped = tape !== undefined ? { tape } : {};
    if (server.kind === 'stdio') return StdioWireProxy.prepare({ server, policy, recorder, redactor, scope, ...taped });
    if (server.kind === 'http') {
      return HttpWireProxy.forHttpServer({ server, policy, recorder, redactor, scope, ...taped });
    }
    return InProcessHttpEndpoint.start({ server, policy, recorder, redactor, scope, ...taped });
  }

  /**
   * Reads what the proxies captured since the last call and records it as wire events
   * (`mcp.request`/`mcp.response`/`mcp.error`/`mcp.notification`, origin `wire_observed`, server,
   * connectionId, jsonrpcId, raw frame evidence, policy denials as such), tagged with `scope()`.
   * Never throws.
   */
  async sync(): Promise<void> {
    await Promise.all(
      this.proxies.map((p) =>
        p.sync().catch((error: unknown) => {
          this.options.logger.debug('reading a capture failed', {
            server: p.name,
            errorType: (error as Error)?.constructor?.name,
          });
        }),
      ),
    );
  }

  /** Capture files and pids of the stdio proxies started so far (valid until `close`). */
  captures(): WireCaptureInfo[] {
    return this.proxies.flatMap((p) => (p.captureInfo ? [p.captureInfo()] : []));
  }

  /**
   * Call after the agent process is gone: final sync, stop reverse proxies, reap proxy/server
   * processes still alive (process group), remove temp files; idempotent, never throws. Anything
   * left behind adds the `cleanup_failed` limitation.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.starting?.catch(() => undefined);
      await this.closeProxies();
    })();
    return this.closing;
  }

  private async closeProxies(): Promise<void> {
    const proxies = this.proxies.splice(0);
    const results = await Promise.all(proxies.map((p) => p.close().catch(() => false)));
    if (results.some((clean) => !clean)) {
      this.options.recorder.addLimitation('cleanup_failed');
      this.options.logger.warn('an MCP capture proxy or server could not be cleaned up');
    }
  }
}
