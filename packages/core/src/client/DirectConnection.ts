/// <reference lib="esnext.disposable" />
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { M3Error, TransportStartupError } from '../errors';
import type { ExecutionResult } from '../execution/ExecutionResult';
import { buildExecutionResult } from '../execution/buildExecutionResult';
import { newId } from '../ids';
import type { JsonObject, JsonValue } from '../json';
import { linkToKit } from '../kit/kitLink';
import { createLogger, type M3Logger } from '../logging/logger';
import { isSecretRef, resolveSecret } from '../redaction/SecretRef';
import type { ServerDefinition } from '../servers/ServerDefinition';
import type { TraceEvent } from '../trace/Event';
import type { ExecutionCreatedPayload, InitializedPayload } from '../trace/payloads';
import { TraceRecorder } from '../trace/TraceRecorder';
import type { TraceResult } from '../trace/TraceResult';
import { ObservedTransport } from '../transport/ObservedTransport';
import { openTransport, type OpenedTransport } from '../transport/openTransport';
import { clientNotReady, type LateProperty } from './clientNotReady';
import { closeError, closeOutcome, type CloseRequest } from './closeOutcome';
import { createSdkClient, readInitialization } from './createSdkClient';
import type { DirectClientHost, ExecutionContext } from './DirectClientHost';
import { DEFAULT_TIMEOUT_MS, validateDirectClientOptions, type DirectClientOptions } from './DirectClientOptions';
import { directExecutionRecord } from './executionRecord';
import { mapSdkError } from './mapSdkError';
import { RequestRunner, type PerRequest } from './RequestRunner';
import type { InitializationResult } from './results';

type State = 'new' | 'connecting' | 'open' | 'closing' | 'closed';

/** How long close waits for a reaped child to report its exit before finishing the trace. */
const EXIT_WAIT_MS = 5_000;

/**
 * The lifecycle of one direct MCP connection and its execution: connect (record, transport,
 * `initialize`), the guarded operation/request helpers its subclass builds on, and close (cancel,
 * reap, finalize, save). `DirectClient` adds the MCP operations.
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
  private readonly context: ExecutionContext;
  private readonly connectionId = newId('conn');
  private readonly runner: RequestRunner;
  private readonly eventWatchers = new Map<(event: TraceEvent) => void, (() => void) | undefined>();
  private readonly connectAbort = new AbortController();
  private state: State = 'new';
  private recorder: TraceRecorder | undefined;
  private createdAt: string | undefined;
  private sdk: Client | undefined;
  private opening: Promise<OpenedTransport> | undefined;
  private opened: OpenedTransport | undefined;
  private connecting: Promise<this> | undefined;
  private creating: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private escaped: M3Error | undefined;
  private directResult: JsonValue | undefined;
  private directResultLive: unknown;
  private initializationValue: InitializationResult | undefined;
  private finalTraceValue: TraceResult | undefined;
  private resultValue: ExecutionResult | undefined;

  protected constructor(
    host: DirectClientHost,
    server: ServerDefinition,
    options: DirectClientOptions,
    context: ExecutionContext,
  ) {
    this.options = validateDirectClientOptions(options);
    this.host = host;
    this.server = server;
    this.context = context;
    this.timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.executionId = newId('exec');
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
    if (this.finalTraceValue !== undefined) return this.finalTraceValue;
    if (this.recorder === undefined) {
      throw new M3Error('client_not_connected', 'direct client is not connected yet: await client.connect() first');
    }
    return linkToKit(this.recorder.snapshot(), this.host.linkTarget);
  }

  /** The finalized trace. Throws `ClientNotReady` until `close()` has finished. */
  get finalTrace(): TraceResult {
    if (this.finalTraceValue !== undefined) return this.finalTraceValue;
    throw this.notReady('finalTrace');
  }

  /** The execution result. Throws `ClientNotReady` until `close()` has finished. */
  get result(): ExecutionResult {
    if (this.resultValue !== undefined) return this.resultValue;
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
    this.directResult = json;
    this.directResultLive = live;
  }

  /**
   * @internal Events recorded so far, and `listener` for every later one (no gap between them).
   * Before `connect()` the listener is attached when the recorder is created.
   */
  follow(listener: (event: TraceEvent) => void): { past: readonly TraceEvent[]; stop: () => void } {
    if (this.recorder !== undefined) {
      const past = [...this.recorder.events];
      const stop = this.recorder.finished ? () => undefined : this.recorder.subscribe(listener);
      return { past, stop };
    }
    this.eventWatchers.set(listener, undefined);
    return {
      past: [],
      stop: () => {
        this.eventWatchers.get(listener)?.();
        this.eventWatchers.delete(listener);
      },
    };
  }

  // ---------------------------------------------------------------- for the operations

  /** The connected SDK client (only valid inside an operation). */
  protected get sdkClient(): Client {
    return this.sdk as Client;
  }

  /** A public operation: must be open; any exception that escapes marks the execution failed. */
  protected async operation<T>(name: string, body: () => Promise<T>): Promise<T> {
    this.assertOpen(name);
    try {
      return await body();
    } catch (error) {
      const mapped =
        error instanceof M3Error
          ? error
          : mapSdkError(error, {
              operation: name,
              timeoutMs: this.timeoutMs,
              redactor: this.host.redactor,
              cancelled: false,
            });
      if (this.state === 'open' || mapped.code !== 'cancelled') this.escaped ??= mapped;
      throw mapped;
    }
  }

  /** One SDK request with timeout, abort signal, progress and id capture. */
  protected request<T>(
    method: string,
    invoke: (options: RequestOptions) => Promise<T>,
    perCall?: PerRequest,
  ): Promise<T> {
    this.assertOpen(method);
    return this.runner.run(method, invoke, perCall);
  }

  /** Sends a notification through the SDK. */
  protected notify(method: string, send: () => Promise<void>): Promise<void> {
    this.assertOpen(method);
    return this.runner.notify(method, send);
  }

  // ---------------------------------------------------------------- connect

  private async doConnect(): Promise<this> {
    this.state = 'connecting';
    const binding = this.host.redactor.redactJson(this.server.describe());
    const traceId = newId('trace');
    const recorder = new TraceRecorder({ executionId: this.executionId, redactor: this.host.redactor, traceId });
    this.recorder = recorder;
    for (const watcher of this.eventWatchers.keys()) this.eventWatchers.set(watcher, recorder.subscribe(watcher));
    this.createdAt = new Date().toISOString();
    const created: ExecutionCreatedPayload = {
      traceId,
      runtime: 'direct',
      runId: this.context.runId,
      suiteName: this.context.suiteName,
      caseId: this.context.caseId,
      servers: [{ ...binding }],
    };
    recorder.record('execution.created', {
      phase: 'startup',
      origin: 'normalized',
      direction: 'internal',
      payload: created,
    });
    try {
      this.host.executionCreated(this.executionId);
      this.creating = this.host.store.createExecution(
        directExecutionRecord({
          executionId: this.executionId,
          context: this.context,
          binding,
          createdAt: this.createdAt,
        }),
      );
      await this.creating;
      // close() may have run while the record was being written: then nothing may be started.
      this.assertStillConnecting();
      const bearerToken = this.resolveBearerToken();
      this.opening = openTransport(this.server, {
        redactor: this.host.redactor,
        ...(bearerToken !== undefined && { bearerToken }),
        recorder,
        connectionId: this.connectionId,
      });
      this.opened = await this.opening;
      this.assertStillConnecting();
      const observed = new ObservedTransport(this.opened.transport, {
        recorder,
        server: binding.name,
        connectionId: this.connectionId,
      });
      const { sdk, tap } = createSdkClient(observed, this.options, this.logger);
      this.sdk = sdk;
      this.runner.attach(tap, recorder);
      await sdk.connect(tap, { timeout: this.timeoutMs, signal: this.connectAbort.signal });
      this.assertStillConnecting();
      const initialization = readInitialization(sdk, tap);
      this.initializationValue = initialization;
      const initialized: InitializedPayload = {
        protocolVersion: initialization.protocolVersion,
        serverInfo: initialization.serverInfo as JsonObject,
        capabilities: initialization.capabilities as JsonObject,
        instructions: initialization.instructions,
      };
      recorder.record('mcp.initialized', {
        phase: 'initialization',
        origin: 'normalized',
        direction: 'server_to_client',
        server: binding.name,
        connectionId: this.connectionId,
        payload: initialized,
      });
      this.state = 'open';
      return this;
    } catch (error) {
      const closingAlready = this.state !== 'connecting';
      const mapped = mapSdkError(error, {
        operation: 'initialize',
        timeoutMs: this.timeoutMs,
        redactor: this.host.redactor,
        cancelled: closingAlready,
      });
      this.escaped ??= mapped;
      if (!closingAlready) await this.closeWith({ reason: 'connect_failed' }).catch(() => undefined);
      throw mapped;
    }
  }

  private resolveBearerToken(): string | undefined {
    const configured = this.options.bearerToken;
    if (configured === undefined) return undefined;
    const token = isSecretRef(configured) ? resolveSecret(configured) : configured;
    if (token === undefined || token === '') {
      const env = isSecretRef(configured) ? configured.env : null;
      throw new TransportStartupError(
        env !== null
          ? `the bearerToken secret is not set: export ${env} before connecting`
          : 'bearerToken is empty: pass a token or secretFromEnv(NAME)',
        { env },
      );
    }
    this.host.redactor.addCanary(token);
    return token;
  }

  private assertStillConnecting(): void {
    if (this.state !== 'connecting') {
      throw new M3Error('cancelled', 'connect was cancelled: the client was closed while connecting');
    }
  }

  private notReady(property: LateProperty): M3Error {
    return clientNotReady({
      property,
      state: this.state,
      everConnected: this.recorder !== undefined,
      executionId: this.executionId,
    });
  }

  private closedError(operation: string): M3Error {
    return new M3Error(
      'client_closed',
      `direct client is closed: ${operation} needs an open connection; create a new one with kit.direct(server).connect()`,
      { operation, executionId: this.executionId },
    );
  }

  private assertOpen(operation: string): void {
    if (this.state === 'open') return;
    if (this.state === 'closing' || this.state === 'closed') throw this.closedError(operation);
    throw new M3Error(
      'client_not_connected',
      `direct client is not connected: await client.connect() before ${operation}`,
      {
        operation,
      },
    );
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
    const recorder = this.recorder as TraceRecorder;
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
    const reaping = opened !== undefined && interrupted ? this.reap(opened, limitations) : undefined;
    try {
      await this.sdk?.close();
    } catch (error) {
      this.logger.debug('closing the MCP client failed', { errorType: (error as Error).constructor?.name });
    }
    await (reaping ?? (opened !== undefined ? this.reap(opened, limitations) : undefined));

    const outcome = closeOutcome(request.reason, interrupted, this.escaped);
    const error = closeError(outcome, request, this.escaped, this.host.redactor);
    const finalTrace = recorder.finish(outcome, error, {
      limitations,
      ...(this.directResult !== undefined && { directResult: this.directResult }),
    });
    linkToKit(finalTrace, this.host.linkTarget);
    const finishedAt = new Date().toISOString();
    this.finalTraceValue = finalTrace;
    const result = buildExecutionResult({
      trace: finalTrace,
      outcome,
      createdAt: this.createdAt as string,
      finishedAt,
      runId: this.context.runId,
      suiteName: this.context.suiteName,
      caseId: this.context.caseId,
      ...(this.directResultLive !== undefined && { directResult: this.directResultLive }),
      ...(error !== undefined && { error }),
      evaluations: () => this.host.evaluationsFor(this.executionId),
      kit: this.host.linkTarget,
    });
    this.resultValue = result;
    this.state = 'closed';
    // The execution record must exist before its finish is written (a slow store may still be on it).
    const created = await this.creating?.then(
      () => true,
      () => false,
    );
    if (created === false) {
      this.host.clientClosed(this);
      return;
    }
    const write = this.host.store.finishExecution({
      executionId: this.executionId,
      outcome,
      finishedAt,
      snapshot: { ...result.snapshot } as JsonObject,
      trace: finalTrace,
      evidence: recorder.evidence,
    });
    this.host.trackWrite(write);
    this.host.clientClosed(this);
    await write;
  }

  private async reap(opened: OpenedTransport, limitations: string[]): Promise<void> {
    try {
      await opened.reap();
      if (opened.process !== undefined) await waitAtMost(opened.process.exited, EXIT_WAIT_MS);
    } catch (error) {
      limitations.push('cleanup_failed');
      this.logger.warn('reaping the server process failed', { errorType: (error as Error).constructor?.name });
    }
  }
}

async function waitAtMost(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    }),
  ]);
  if (timer !== undefined) clearTimeout(timer);
}
