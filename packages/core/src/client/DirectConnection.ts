/// <reference lib="esnext.disposable" />
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { M3Error, ProtocolVersionError } from '../errors';
import type { JsonObject, JsonValue } from '../json';
import { isModernRevision, type ProtocolSetting } from '../servers/protocolSetting';
import type { InitializedPayload } from '../trace/payloads';
import { StartedTransport } from '../transport/StartedTransport';
import { tagTransportKind } from '../transport/transportKinds';
import { declaredCapabilities } from './clientCapabilities';
import { connectModern, createModernSdkClient } from './createModernSdkClient';
import { cachedEra, rememberEra } from './eraCache';
import { sdkTypes } from './sdkTypes';
import { probeEra } from './eraProbe';
import type { ModernConnection, SdkSession } from './SdkSession';
import type { ErrorInfo, ExecutionResult } from '../execution/ExecutionResult';
import { toErrorInfo } from '../execution/buildExecutionResult';
import { newId } from '../ids';
import { linkToKit } from '../ownership/kitLink';
import { createLogger, type M3Logger } from '../logging/logger';
import type { ServerDefinition } from '../servers/ServerDefinition';
import type { TraceEvent } from '../trace/Event';
import type { TraceRecorder } from '../trace/TraceRecorder';
import type { TraceResult } from '../trace/TraceResult';
import { ObservedTransport } from '../transport/ObservedTransport';
import { openTransport, type OpenedTransport } from '../transport/openTransport';
import { resolveBearerToken } from './bearerToken';
import { clientNotReady, type LateProperty } from './clientNotReady';
import { closeError, closeOutcome, type CloseRequest } from './closeOutcome';
import { clientClosedError, connectCancelledError, notConnectedError } from './connectionErrors';
import { CLIENT_INFO, createSdkClient, readInitialization, readModernInitialization } from './createSdkClient';
import type { DirectClientHost, ExecutionContext } from './DirectClientHost';
import { DEFAULT_TIMEOUT_MS, validateDirectClientOptions, type DirectClientOptions } from './DirectClientOptions';
import { DirectExecution } from './DirectExecution';
import { recordInitialized } from './directLifecycleEvents';
import { isConnectionLoss, mapSdkError } from './mapSdkError';
import { reapServer } from './reapServer';
import { RequestRunner } from './RequestRunner';
import type { InitializationResult } from './results';

type State = 'new' | 'connecting' | 'open' | 'closing' | 'closed';

/** JSON-RPC error code of the 2026-07-28 revision: unsupported protocol version. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/**
 * The -32022 refusal inside what the v1 SDK threw at `initialize`: a JSON-RPC error (stdio, in
 * process) or, over HTTP, the JSON-RPC error body of the 400 response the SDK reports as
 * `Streamable HTTP error: Error POSTing to endpoint: {...}`.
 */
function unsupportedVersionRefusal(error: unknown): { data: unknown } | undefined {
  if (error instanceof sdkTypes().McpError)
    return error.code === UNSUPPORTED_PROTOCOL_VERSION ? { data: error.data } : undefined;
  if (!(error instanceof Error) || !/StreamableHTTPError/.test(error.constructor?.name ?? '')) return undefined;
  const body = /Error POSTing to endpoint: (\{.*\})$/s.exec(error.message)?.[1];
  if (body === undefined) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; data?: unknown } };
    return parsed.error?.code === UNSUPPORTED_PROTOCOL_VERSION ? { data: parsed.error.data } : undefined;
  } catch {
    return undefined;
  }
}

/** The era `chooseEra` settled on, and the transport to run it on. */
type EraPlan =
  | {
      era: 'modern';
      transport: Transport;
      version: string;
      discover: JsonObject;
      negotiation: NonNullable<InitializedPayload['negotiation']>;
    }
  | {
      era: 'legacy';
      transport: Transport;
      /** The revision to ask for at `initialize` (default: the SDK's latest). */
      requestedRevision?: string;
      /** True when that revision is pinned: the server must answer with it. */
      pinned: boolean;
      negotiation: NonNullable<InitializedPayload['negotiation']>;
    };

/**
 * The lifecycle of one direct MCP connection: connect (start the execution, open the transport,
 * `initialize`), the open/closed guards, and close (cancel, reap, finalize and save the
 * execution, which `DirectExecution` records). `DirectOperations` adds the request plumbing and
 * `DirectClient` the MCP operations.
 */
export abstract class DirectConnection {
  /** The execution this connection records (minted before connecting). */
  readonly executionId: string;
  /** The server definition this client connects to. */
  readonly server: ServerDefinition;
  /** Per-operation timeout in milliseconds. */
  readonly timeoutMs: number;

  protected readonly host: DirectClientHost;
  protected readonly options: DirectClientOptions;
  protected readonly logger: M3Logger;
  /** Runs the SDK requests and notifications of the operations (attached at connect). */
  protected readonly runner: RequestRunner;
  /** The SDK client (v1 `Client` in the legacy era, the v2 one's session in the modern era). */
  protected sdk: SdkSession | undefined;
  /** The SDK v2 client of a modern-era connection. */
  protected modern: ModernConnection | undefined;
  private readonly execution: DirectExecution;
  private readonly connectionId = newId('conn');
  private readonly connectAbort = new AbortController();
  private state: State = 'new';
  private opening: Promise<OpenedTransport> | undefined;
  private opened: OpenedTransport | undefined;
  private connecting: Promise<this> | undefined;
  private closing: Promise<void> | undefined;
  private escaped: M3Error | undefined;
  /** Every exception that escaped an operation (redacted), stored with the execution. */
  private readonly operationErrors: ErrorInfo[] = [];
  private initializationValue: InitializationResult | undefined;

  protected constructor(
    host: DirectClientHost,
    server: ServerDefinition,
    options: DirectClientOptions,
    context: ExecutionContext,
  ) {
    this.options = validateDirectClientOptions(options);
    this.host = host;
    this.server = server;
    this.execution = new DirectExecution(host, context);
    this.timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.executionId = this.execution.executionId;
    this.logger = createLogger(host.redactor, { component: 'direct-client', executionId: this.executionId });
    this.runner = new RequestRunner({
      redactor: host.redactor,
      server: server.name,
      connectionId: this.connectionId,
      defaultTimeoutMs: this.timeoutMs,
    });
    linkToKit(this, host.linkTarget);
  }

  /**
   * What the server said at `initialize`. Throws `ClientNotReady` until `connect()` has resolved
   * (and on a client whose connect failed); kept after close.
   */
  get initialization(): InitializationResult {
    if (this.initializationValue !== undefined) return this.initializationValue;
    throw this.notReady('initialization');
  }

  /** True between a successful `connect()` and `close()`. */
  get connected(): boolean {
    return this.state === 'open';
  }

  /** True once `close()` has finished. */
  get closed(): boolean {
    return this.state === 'closed';
  }

  /** The trace so far (partial, not finalized), or the final trace after close. */
  get trace(): TraceResult {
    const final = this.execution.finalTrace;
    if (final !== undefined) return final;
    const recorder = this.execution.recorder;
    if (recorder === undefined) {
      throw new M3Error('client_not_connected', 'direct client is not connected yet: await client.connect() first');
    }
    return linkToKit(recorder.snapshot(), this.host.linkTarget);
  }

  /** The finalized trace. Throws `ClientNotReady` until `close()` has finished. */
  get finalTrace(): TraceResult {
    const final = this.execution.finalTrace;
    if (final !== undefined) return final;
    throw this.notReady('finalTrace');
  }

  /** The execution result. Throws `ClientNotReady` until `close()` has finished. */
  get result(): ExecutionResult {
    const result = this.execution.result;
    if (result !== undefined) return result;
    throw this.notReady('result');
  }

  /** Starts the transport, runs `initialize` and returns this client. Idempotent. */
  connect(): Promise<this> {
    if (this.state === 'closing' || this.state === 'closed') return Promise.reject(this.closedError('connect'));
    this.connecting ??= this.doConnect();
    return this.connecting;
  }

  /** The cached initialization (connects first if needed). */
  async initialize(): Promise<InitializationResult> {
    await this.connect();
    this.assertOpen('initialize');
    return this.initialization;
  }

  /** Closes the connection, reaps the child, finalizes and saves the execution. Idempotent. */
  close(): Promise<void> {
    return this.closeWith({ reason: 'user' });
  }

  /** `await using client = await kit.direct(server).connect()` closes it at scope end. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** @internal Close for a reason other than the user's (kit, handle cancel, deadline). */
  closeWith(request: CloseRequest): Promise<void> {
    this.closing ??= this.shutdown(request);
    return this.closing;
  }

  /**
   * @internal The one-shot result of a spec: `json` goes into `execution.finished`, `live` (e.g.
   * the `ToolCallResult`) becomes `result.directResult`.
   */
  setDirectResult(json: JsonValue, live: unknown): void {
    this.execution.setDirectResult(json, live);
  }

  /**
   * @internal Events recorded so far, and `listener` for every later one (no gap between them).
   * Before `connect()` the listener is attached when the recorder is created.
   */
  follow(listener: (event: TraceEvent) => void): { past: readonly TraceEvent[]; stop: () => void } {
    return this.execution.follow(listener);
  }

  // ---------------------------------------------------------------- for the operations

  /** Throws the `client_closed` / `client_not_connected` error unless the connection is open. */
  protected assertOpen(operation: string): void {
    if (this.state === 'open') return;
    throw this.state === 'closing' || this.state === 'closed'
      ? this.closedError(operation)
      : notConnectedError(operation);
  }

  /** Remembers an error that escaped an operation: the execution's outcome becomes `failed`. */
  protected noteEscaped(error: M3Error): void {
    if (this.state === 'open' || error.code !== 'cancelled') {
      this.escaped ??= error;
      this.operationErrors.push(toErrorInfo(error, this.host.redactor));
    }
  }

  // ---------------------------------------------------------------- connect

  private async doConnect(): Promise<this> {
    this.state = 'connecting';
    const binding = this.host.redactor.redactJson(this.server.describe());
    const { recorder, created } = this.execution.start(binding);
    try {
      await created;
      // close() may have run while the record was being written: then nothing may be started.
      this.assertStillConnecting();
      const bearerToken = resolveBearerToken(this.options.bearerToken, this.host.redactor);
      this.opening = openTransport(this.server, {
        redactor: this.host.redactor,
        ...(bearerToken !== undefined && { bearerToken }),
        recorder,
        connectionId: this.connectionId,
      });
      this.opened = await this.opening;
      this.assertStillConnecting();
      const plan = await this.chooseEra(this.opened);
      this.assertStillConnecting();
      tagTransportKind(plan.transport, this.opened.kind);
      const observed = new ObservedTransport(plan.transport, {
        recorder,
        server: binding.name,
        connectionId: this.connectionId,
      });
      const request = { timeout: this.timeoutMs, signal: this.connectAbort.signal };
      let initialization: InitializationResult;
      if (plan.era === 'modern') {
        const { client, session, tap } = createModernSdkClient(observed, this.options, this.logger);
        this.sdk = session.asSession();
        this.modern = session;
        this.runner.attach(tap, recorder, this.opened.connectionEnd?.bind(this.opened));
        await connectModern(client, tap, plan.discover, request);
        this.assertStillConnecting();
        initialization = readModernInitialization(client);
      } else {
        const { sdk, tap } = createSdkClient(observed, this.options, this.logger, plan.requestedRevision);
        this.sdk = sdk;
        this.runner.attach(tap, recorder, this.opened.connectionEnd?.bind(this.opened));
        try {
          await sdk.connect(tap, request);
        } catch (error) {
          throw this.handshakeRefusal(error, plan.requestedRevision) ?? error;
        }
        this.assertStillConnecting();
        initialization = readInitialization(sdk, tap);
        const requested = plan.requestedRevision;
        if (plan.pinned && requested !== undefined && initialization.protocolVersion !== requested) {
          throw this.pinRefused(
            requested,
            [initialization.protocolVersion],
            'it answered initialize with another revision',
          );
        }
      }
      this.initializationValue = initialization;
      this.execution.setProtocol({ protocolVersion: initialization.protocolVersion, era: initialization.era });
      recordInitialized(
        recorder,
        initialization,
        { server: binding.name, connectionId: this.connectionId },
        plan.negotiation,
      );
      this.state = 'open';
      return this;
    } catch (error) {
      const closingAlready = this.state !== 'connecting';
      const connectionEnd =
        !closingAlready && isConnectionLoss(error)
          ? await this.opened?.connectionEnd?.('initialize').catch(() => undefined)
          : undefined;
      const mapped = mapSdkError(error, {
        operation: 'initialize',
        timeoutMs: this.timeoutMs,
        redactor: this.host.redactor,
        cancelled: closingAlready,
        ...(connectionEnd !== undefined && { connectionEnd }),
      });
      this.escaped ??= mapped;
      this.operationErrors.push(toErrorInfo(mapped, this.host.redactor));
      if (!closingAlready) await this.closeWith({ reason: 'connect_failed' }).catch(() => undefined);
      throw mapped;
    }
  }

  /** The connection's protocol setting: `kit.direct`'s, else the definition's (`protocolVersion` alone means the handshake). */
  private protocolSetting(): ProtocolSetting {
    if (this.options.protocol !== undefined) return this.options.protocol;
    if (this.options.protocolVersion !== undefined) return 'legacy';
    return this.server.protocol;
  }

  /**
   * Picks the era (contract §23). `legacy` and a 2025 revision go straight to the handshake; `auto`
   * and a modern revision ask `server/discover` in place on the opened connection (HTTP: through
   * the SDK v2 transport), unless an earlier `auto` connect of this run found the server legacy.
   * A pinned modern revision the server does not offer throws `ProtocolVersionError`.
   */
  private async chooseEra(opened: OpenedTransport): Promise<EraPlan> {
    const setting = this.protocolSetting();
    if (setting === 'legacy' || (setting !== 'auto' && !isModernRevision(setting))) {
      const pinned = setting !== 'legacy';
      return {
        era: 'legacy',
        transport: opened.transport,
        requestedRevision: pinned ? setting : this.options.protocolVersion,
        pinned,
        negotiation: { mode: pinned ? 'pinned' : 'legacy' },
      };
    }
    if (setting === 'auto' && cachedEra(this.server) === 'legacy') {
      return { era: 'legacy', transport: opened.transport, pinned: false, negotiation: { mode: 'cached' } };
    }
    const probeTransport = opened.openModern?.() ?? opened.transport;
    const verdict = await probeEra(probeTransport, {
      timeoutMs: this.timeoutMs,
      clientInfo: CLIENT_INFO,
      capabilities: declaredCapabilities(this.options) as JsonObject,
    });
    if (verdict.era === 'unreachable') throw verdict.error;
    if (verdict.era === 'modern') {
      if (setting === 'auto') rememberEra(this.server, 'modern');
      return {
        era: 'modern',
        transport: new StartedTransport(probeTransport),
        version: verdict.version,
        discover: verdict.discover,
        negotiation: {
          mode: setting === 'auto' ? 'probe' : 'pinned',
          detail: `server/discover offered ${verdict.version}`,
        },
      };
    }
    if (setting !== 'auto') throw this.pinRefused(setting, [...verdict.offered], verdict.reason);
    if (!verdict.closed) rememberEra(this.server, 'legacy');
    const negotiation = { mode: 'probe' as const, detail: verdict.reason };
    if (probeTransport !== opened.transport) {
      // HTTP: the probe went through the SDK v2 transport; the handshake uses the 2025 one.
      await probeTransport.close().catch(() => undefined);
      return { era: 'legacy', transport: opened.transport, pinned: false, negotiation };
    }
    return { era: 'legacy', transport: new StartedTransport(opened.transport), pinned: false, negotiation };
  }

  /** `ProtocolVersionError` for a pinned revision the server does not offer. */
  private pinRefused(requested: string, offered: string[], why: string): ProtocolVersionError {
    return new ProtocolVersionError(
      `server ${this.server.name} does not offer protocol revision ${requested} (${this.host.redactor.redactText(why).slice(0, 300)}); ` +
        `offered: ${offered.length > 0 ? offered.join(', ') : 'none named'}. Use protocol: 'auto' to take the newest revision both sides support` +
        (isModernRevision(requested) ? ", or 'legacy' for the 2025 initialize handshake" : ''),
      { requested, offered, server: this.server.name },
    );
  }

  /**
   * The handshake refused because the server serves only newer revisions (JSON-RPC -32022, as a
   * v2 server with `legacy: 'reject'` answers `initialize`): `ProtocolVersionError` saying so.
   */
  private handshakeRefusal(error: unknown, requested: string | undefined): ProtocolVersionError | undefined {
    const refusal = unsupportedVersionRefusal(error);
    if (refusal === undefined) return undefined;
    const data = refusal.data as { supported?: unknown; requested?: unknown } | undefined;
    const offered = Array.isArray(data?.supported)
      ? data.supported.filter((v): v is string => typeof v === 'string')
      : [];
    const asked = requested ?? (typeof data?.requested === 'string' ? data.requested : 'the 2025 handshake');
    return new ProtocolVersionError(
      `server ${this.server.name} refused the 2025 initialize handshake: it serves only ${offered.length > 0 ? offered.join(', ') : 'newer revisions'}. ` +
        "Use protocol: 'auto' (or pin '2026-07-28') to connect in the stateless era",
      { requested: asked, offered, server: this.server.name, protocolCode: UNSUPPORTED_PROTOCOL_VERSION },
    );
  }

  private assertStillConnecting(): void {
    if (this.state !== 'connecting') throw connectCancelledError();
  }

  private notReady(property: LateProperty): M3Error {
    return clientNotReady({
      property,
      state: this.state,
      everConnected: this.execution.recorder !== undefined,
      executionId: this.executionId,
    });
  }

  private closedError(operation: string): M3Error {
    return clientClosedError(operation, this.executionId);
  }

  // ---------------------------------------------------------------- close

  private async shutdown(request: CloseRequest): Promise<void> {
    const previous = this.state;
    if (previous === 'new') {
      this.state = 'closed';
      this.host.clientClosed(this);
      return;
    }
    this.state = 'closing';
    const recorder = this.execution.recorder as TraceRecorder;
    const cancelled = this.runner.cancelAll();
    if (previous === 'connecting') this.connectAbort.abort(new M3Error('cancelled', 'client closed while connecting'));
    if (request.diagnostic !== undefined) {
      recorder.record('diagnostic', {
        phase: 'cleanup',
        origin: 'normalized',
        direction: 'internal',
        payload: request.diagnostic,
      });
    }
    const interrupted = cancelled > 0 || previous === 'connecting';
    const limitations: string[] = [];
    const opened = this.opened ?? (await this.opening?.catch(() => undefined));
    // A server busy with a cancelled call would make the graceful stdin close wait its full grace
    // period, so then the child is reaped at once; otherwise it gets the graceful close first.
    const reaping = opened !== undefined && interrupted ? reapServer(opened, limitations, this.logger) : undefined;
    try {
      await this.sdk?.close();
    } catch (error) {
      this.logger.debug('closing the MCP client failed', { errorType: (error as Error).constructor?.name });
    }
    await (reaping ?? (opened !== undefined ? reapServer(opened, limitations, this.logger) : undefined));

    const outcome = closeOutcome(request.reason, interrupted, this.escaped);
    const error = closeError(outcome, request, this.escaped, this.host.redactor);
    this.execution.finish({ outcome, error, limitations, operationErrors: this.operationErrors });
    this.state = 'closed';
    const saving = await this.execution.startSave();
    this.host.clientClosed(this);
    await saving?.write;
  }
}
