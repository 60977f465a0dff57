/// <reference lib="esnext.disposable" />
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolResultSchema, type LoggingLevel, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ExecutionOutcome } from '../enums';
import { M3Error, ModelValidationError, OperationTimeout, TransportError, TransportStartupError } from '../errors';
import { isSecretRef, resolveSecret } from '../redaction/SecretRef';
import type { ExecutionResult, ToolCallResult } from '../execution/ExecutionResult';
import { buildExecutionResult, toErrorInfo } from '../execution/buildExecutionResult';
import { newId } from '../ids';
import type { JsonObject, JsonValue } from '../json';
import { linkToKit } from '../kit/kitLink';
import { createLogger, type M3Logger } from '../logging/logger';
import type { ServerDefinition } from '../servers/ServerDefinition';
import type { DiagnosticPayload, ExecutionCreatedPayload, InitializedPayload } from '../trace/payloads';
import { TraceRecorder } from '../trace/TraceRecorder';
import type { TraceEvent } from '../trace/Event';
import type { TraceResult } from '../trace/TraceResult';
import { ObservedTransport } from '../transport/ObservedTransport';
import { openTransport, type OpenedTransport } from '../transport/openTransport';
import type { DirectClientHost, ExecutionContext } from './DirectClientHost';
import {
  checkTimeoutMs,
  DEFAULT_TIMEOUT_MS,
  validateDirectClientOptions,
  type CallToolOptions,
  type DirectClientOptions,
} from './DirectClientOptions';
import { listAll } from './listAll';
import { mapSdkError } from './mapSdkError';
import { RequestTap } from './RequestTap';
import type {
  ClientNotificationMessage,
  CompletionArgument,
  CompletionContext,
  CompletionReference,
  CompletionResult,
  GetPromptResult,
  InitializationResult,
  Prompt,
  PromptsPage,
  Resource,
  ResourceReadResult,
  ResourcesPage,
  ResourceTemplate,
  ResourceTemplatesPage,
  ToolsPage,
} from './results';
import { clientCapabilities, installServerRequestHandlers } from './serverRequestHandlers';
import { ToolSchemaValidator } from './ToolSchemaValidator';

/** Why a client is closing: decides the outcome when nothing failed. */
export type CloseReason = 'user' | 'kit' | 'cancel' | 'deadline' | 'connect_failed';

/** Internal close request (kit, handles, deadlines). */
export interface CloseRequest {
  readonly reason: CloseReason;
  /** Recorded before `execution.finished`, e.g. the deadline diagnostic. */
  readonly diagnostic?: DiagnosticPayload;
}

type State = 'new' | 'connecting' | 'open' | 'closing' | 'closed';

interface InFlight {
  readonly method: string;
  readonly controller: AbortController;
  readonly startedAt: number;
  readonly jsonrpcIds: Array<string | number>;
  cancelled: boolean;
}

const LOGGING_LEVELS: ReadonlySet<string> = new Set([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]);
const CLIENT_INFO = { name: 'sf-m3', version: '0.1.0' };
/** How long close waits for a reaped child to report its exit before finishing the trace. */
const EXIT_WAIT_MS = 5_000;

/**
 * One MCP connection under test (SPEC §4). Made by `kit.direct(server, options)`, unconnected;
 * `connect()` starts the transport, runs `initialize` and starts recording the execution's trace;
 * `close()` cancels what is in flight, closes the connection, reaps the child process, finalizes
 * the trace and saves the execution. Tool errors come back as results; the exceptions are the
 * SPEC §4 classes.
 */
export class DirectClient {
  /** The execution this connection records (minted before connecting). */
  readonly executionId: string;
  /** The server definition this client connects to. */
  readonly server: ServerDefinition;
  /** Per-operation timeout in milliseconds. */
  readonly timeoutMs: number;

  private readonly host: DirectClientHost;
  private readonly options: DirectClientOptions;
  private readonly context: ExecutionContext;
  private readonly logger: M3Logger;
  private readonly connectionId = newId('conn');
  private readonly validator: ToolSchemaValidator | undefined;
  private readonly inFlight = new Set<InFlight>();
  private readonly eventWatchers = new Map<(event: TraceEvent) => void, (() => void) | undefined>();
  private state: State = 'new';
  private recorder: TraceRecorder | undefined;
  private createdAt: string | undefined;
  private sdk: Client | undefined;
  private tap: RequestTap | undefined;
  private opening: Promise<OpenedTransport> | undefined;
  private opened: OpenedTransport | undefined;
  private connectAbort = new AbortController();
  private connecting: Promise<this> | undefined;
  private closing: Promise<void> | undefined;
  private creating: Promise<void> | undefined;
  private escaped: M3Error | undefined;
  private directResult: JsonValue | undefined;
  private directResultLive: unknown;
  private toolCache: Promise<Map<string, Tool>> | undefined;
  private initializationValue: InitializationResult | undefined;
  private finalTraceValue: TraceResult | undefined;
  private resultValue: ExecutionResult | undefined;

  /** Use `kit.direct(server, options)`; the constructor is for the kit and spec runners. */
  constructor(
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
    this.validator = this.options.validateSchemas === true ? new ToolSchemaValidator() : undefined;
    linkToKit(this, host.linkTarget);
  }

  /** What the server said at `initialize`; undefined before `connect()`. */
  get initialization(): InitializationResult | undefined {
    return this.initializationValue;
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

  /** The finalized trace; undefined until `close()` has finished. */
  get finalTrace(): TraceResult | undefined {
    return this.finalTraceValue;
  }

  /** The execution result; undefined until `close()` has finished. */
  get result(): ExecutionResult | undefined {
    return this.resultValue;
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
    return this.initializationValue as InitializationResult;
  }

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
      this.creating = this.host.store.createExecution({
        executionId: this.executionId,
        runId: this.context.runId,
        suiteName: this.context.suiteName,
        caseId: this.context.caseId,
        attemptId: this.context.attemptId,
        kind: 'direct',
        spec: this.context.spec,
        servers: [binding],
        labels: {
          runId: this.context.runId,
          suiteName: this.context.suiteName,
          caseId: this.context.caseId,
          server: binding.name,
          transport: binding.transport,
          harness: null,
          model: null,
          trial: null,
          matrixId: null,
          metadata: {},
          ...this.context.labels,
        },
        requiredEvaluators: this.context.requiredEvaluators,
        createdAt: this.createdAt,
        finishedAt: null,
        outcome: null,
        snapshot: { lifecycle: 'starting' },
      });
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
      this.tap = new RequestTap(observed, {
        ...(this.options.protocolVersion !== undefined && { protocolVersion: this.options.protocolVersion }),
      });
      const sdk = new Client(CLIENT_INFO, { capabilities: clientCapabilities(this.options) });
      sdk.onerror = (error) => this.logger.debug('MCP client error', { errorType: error.constructor.name });
      installServerRequestHandlers(sdk, this.options, this.logger);
      this.sdk = sdk;
      await sdk.connect(this.tap, { timeout: this.timeoutMs, signal: this.connectAbort.signal });
      this.assertStillConnecting();
      this.initializationValue = this.readInitialization(sdk, this.tap);
      const initialized: InitializedPayload = {
        protocolVersion: this.initializationValue.protocolVersion,
        serverInfo: this.initializationValue.serverInfo as JsonObject,
        capabilities: this.initializationValue.capabilities as JsonObject,
        instructions: this.initializationValue.instructions,
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

  private readInitialization(sdk: Client, tap: RequestTap): InitializationResult {
    const info = sdk.getServerVersion();
    return Object.freeze({
      protocolVersion: tap.negotiatedProtocolVersion ?? 'unknown',
      serverInfo: { ...(info ?? { name: 'unknown', version: 'unknown' }) },
      capabilities: { ...(sdk.getServerCapabilities() ?? {}) },
      instructions: sdk.getInstructions() ?? null,
    });
  }

  // ---------------------------------------------------------------- operations

  /** `tools/list`, one page. */
  listTools(options: { cursor?: string } = {}): Promise<ToolsPage> {
    return this.operation('tools/list', async () => {
      const page = await this.request('tools/list', (o) => this.sdkClient.listTools(cursorParams(options.cursor), o));
      return { tools: page.tools, nextCursor: page.nextCursor };
    });
  }

  /** Every tool, following cursors; a repeated cursor throws `ProtocolError`. */
  listAllTools(): Promise<Tool[]> {
    return this.operation('tools/list', () => this.fetchAllTools());
  }

  /** `resources/list`, one page. */
  listResources(options: { cursor?: string } = {}): Promise<ResourcesPage> {
    return this.operation('resources/list', async () => {
      const page = await this.request('resources/list', (o) =>
        this.sdkClient.listResources(cursorParams(options.cursor), o),
      );
      return { resources: page.resources, nextCursor: page.nextCursor };
    });
  }

  /** Every resource, following cursors. */
  listAllResources(): Promise<Resource[]> {
    return this.operation('resources/list', () =>
      listAll('resources/list', async (cursor) => {
        const page = await this.request('resources/list', (o) => this.sdkClient.listResources(cursorParams(cursor), o));
        return { items: page.resources, nextCursor: page.nextCursor };
      }),
    );
  }

  /** `resources/templates/list`, one page. */
  listResourceTemplates(options: { cursor?: string } = {}): Promise<ResourceTemplatesPage> {
    return this.operation('resources/templates/list', async () => {
      const page = await this.request('resources/templates/list', (o) =>
        this.sdkClient.listResourceTemplates(cursorParams(options.cursor), o),
      );
      return { resourceTemplates: page.resourceTemplates, nextCursor: page.nextCursor };
    });
  }

  /** Every resource template, following cursors. */
  listAllResourceTemplates(): Promise<ResourceTemplate[]> {
    return this.operation('resources/templates/list', () =>
      listAll('resources/templates/list', async (cursor) => {
        const page = await this.request('resources/templates/list', (o) =>
          this.sdkClient.listResourceTemplates(cursorParams(cursor), o),
        );
        return { items: page.resourceTemplates, nextCursor: page.nextCursor };
      }),
    );
  }

  /** `prompts/list`, one page. */
  listPrompts(options: { cursor?: string } = {}): Promise<PromptsPage> {
    return this.operation('prompts/list', async () => {
      const page = await this.request('prompts/list', (o) =>
        this.sdkClient.listPrompts(cursorParams(options.cursor), o),
      );
      return { prompts: page.prompts, nextCursor: page.nextCursor };
    });
  }

  /** Every prompt, following cursors. */
  listAllPrompts(): Promise<Prompt[]> {
    return this.operation('prompts/list', () =>
      listAll('prompts/list', async (cursor) => {
        const page = await this.request('prompts/list', (o) => this.sdkClient.listPrompts(cursorParams(cursor), o));
        return { items: page.prompts, nextCursor: page.nextCursor };
      }),
    );
  }

  /** `resources/read`; `.text` joins the text of every text content. */
  readResource(uri: string): Promise<ResourceReadResult> {
    return this.operation('resources/read', async () => {
      requireString(uri, 'readResource(uri)');
      const result = await this.request('resources/read', (o) => this.sdkClient.readResource({ uri }, o));
      const text = result.contents.map((c) => ('text' in c && typeof c.text === 'string' ? c.text : '')).join('');
      return { contents: result.contents, text };
    });
  }

  /** `prompts/get` with string arguments. */
  getPrompt(name: string, args: Record<string, string> = {}): Promise<GetPromptResult> {
    return this.operation('prompts/get', async () => {
      requireString(name, 'getPrompt(name)');
      return this.request('prompts/get', (o) => this.sdkClient.getPrompt({ name, arguments: args }, o));
    });
  }

  /**
   * `tools/call`. A server answering `isError: true` is a normal result. With `validateSchemas`
   * the arguments are checked before anything is sent and `structuredContent` after.
   */
  callTool(name: string, args: Record<string, unknown> = {}, options: CallToolOptions = {}): Promise<ToolCallResult> {
    return this.operation('tools/call', async () => {
      requireString(name, 'callTool(name)');
      const timeoutMs = checkTimeoutMs(options.timeoutMs) ?? this.timeoutMs;
      if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
        throw new ModelValidationError('callTool onProgress must be a function');
      }
      const tool = this.validator !== undefined ? (await this.cachedTools()).get(name) : undefined;
      if (tool !== undefined) this.validator?.validateArguments(tool, args);
      const result = await this.request(
        'tools/call',
        (o) =>
          this.sdkClient.request({ method: 'tools/call', params: { name, arguments: args } }, CallToolResultSchema, o),
        { timeoutMs, ...(options.onProgress !== undefined && { onProgress: options.onProgress }) },
      );
      const isError = result.isError === true;
      if (tool !== undefined) this.validator?.validateResult(tool, result.structuredContent, isError);
      const toolResult: ToolCallResult = {
        content: (result.content ?? []) as ToolCallResult['content'],
        ...(result.structuredContent !== undefined && { structuredContent: result.structuredContent }),
        isError,
        executionId: this.executionId,
        tool: name,
        server: this.server.name,
      };
      return linkToKit(toolResult, this.host.linkTarget);
    });
  }

  /** `completion/complete`. */
  complete(
    ref: CompletionReference,
    argument: CompletionArgument,
    context?: CompletionContext,
  ): Promise<CompletionResult> {
    return this.operation('completion/complete', async () => {
      const result = await this.request('completion/complete', (o) =>
        this.sdkClient.complete({ ref, argument, ...(context !== undefined && { context }) }, o),
      );
      return {
        values: result.completion.values,
        total: result.completion.total ?? null,
        hasMore: result.completion.hasMore ?? false,
      };
    });
  }

  /** `resources/subscribe`. */
  subscribeResource(uri: string): Promise<void> {
    return this.operation('resources/subscribe', async () => {
      requireString(uri, 'subscribeResource(uri)');
      await this.request('resources/subscribe', (o) => this.sdkClient.subscribeResource({ uri }, o));
    });
  }

  /** `resources/unsubscribe`. */
  unsubscribeResource(uri: string): Promise<void> {
    return this.operation('resources/unsubscribe', async () => {
      requireString(uri, 'unsubscribeResource(uri)');
      await this.request('resources/unsubscribe', (o) => this.sdkClient.unsubscribeResource({ uri }, o));
    });
  }

  /** `ping`. */
  ping(): Promise<void> {
    return this.operation('ping', async () => {
      await this.request('ping', (o) => this.sdkClient.ping(o));
    });
  }

  /** `logging/setLevel`; the level must be one of the eight MCP levels. */
  setLoggingLevel(level: LoggingLevel): Promise<void> {
    return this.operation('logging/setLevel', async () => {
      if (typeof level !== 'string' || !LOGGING_LEVELS.has(level)) {
        throw new ModelValidationError(`unsupported logging level: use one of ${[...LOGGING_LEVELS].join(', ')}`, {
          operation: 'logging/setLevel',
        });
      }
      await this.request('logging/setLevel', (o) => this.sdkClient.setLoggingLevel(level, o));
    });
  }

  /** Sends any client notification (e.g. `notifications/progress`). */
  sendNotification(notification: ClientNotificationMessage): Promise<void> {
    return this.operation('notification', async () => {
      if (typeof notification !== 'object' || notification === null || typeof notification.method !== 'string') {
        throw new ModelValidationError("sendNotification needs { method: 'notifications/…', params? }");
      }
      await this.notify(notification.method, () =>
        this.sdkClient.notification(notification as Parameters<Client['notification']>[0]),
      );
    });
  }

  /** Sends `notifications/roots/list_changed`; needs the `onRoots` callback. */
  sendRootsListChanged(): Promise<void> {
    return this.operation('notifications/roots/list_changed', async () => {
      if (this.options.onRoots === undefined) {
        throw new ModelValidationError(
          'sendRootsListChanged needs the roots capability: pass kit.direct(server, { onRoots })',
          { operation: 'notifications/roots/list_changed' },
        );
      }
      await this.notify('notifications/roots/list_changed', () => this.sdkClient.sendRootsListChanged());
    });
  }

  /** `await using client = await kit.direct(server).connect()` closes it at scope end. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ---------------------------------------------------------------- internals shared with the kit

  /** Closes the connection, reaps the child, finalizes and saves the execution. Idempotent. */
  close(): Promise<void> {
    return this.closeWith({ reason: 'user' });
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

  private async shutdown(request: CloseRequest): Promise<void> {
    const previous = this.state;
    if (previous === 'new') {
      this.state = 'closed';
      this.host.clientClosed(this);
      return;
    }
    this.state = 'closing';
    const recorder = this.recorder as TraceRecorder;
    const cancelledOps = [...this.inFlight];
    for (const op of cancelledOps) this.cancelOperation(op, recorder);
    if (previous === 'connecting') this.connectAbort.abort(new M3Error('cancelled', 'client closed while connecting'));
    if (request.diagnostic !== undefined) {
      recorder.record('diagnostic', {
        phase: 'cleanup',
        origin: 'normalized',
        direction: 'internal',
        payload: request.diagnostic,
      });
    }
    const limitations: string[] = [];
    const opened = this.opened ?? (await this.opening?.catch(() => undefined));
    // A server busy with a cancelled call would make the graceful stdin close wait its full grace
    // period, so then the child is reaped at once; otherwise it gets the graceful close first.
    const reapNow = cancelledOps.length > 0 || previous === 'connecting';
    const reaping = opened !== undefined && reapNow ? this.reap(opened, limitations) : undefined;
    try {
      await this.sdk?.close();
    } catch (error) {
      this.logger.debug('closing the MCP client failed', { errorType: (error as Error).constructor?.name });
    }
    await (reaping ?? (opened !== undefined ? this.reap(opened, limitations) : undefined));
    const outcome = this.outcomeFor(request.reason, cancelledOps.length > 0 || previous === 'connecting');
    const error =
      outcome === 'completed'
        ? undefined
        : outcome === 'failed' && this.escaped !== undefined
          ? toErrorInfo(this.escaped, this.host.redactor)
          : outcome === 'timed_out' && request.diagnostic !== undefined
            ? { code: 'timeout', message: request.diagnostic.message, details: {} }
            : outcome === 'cancelled'
              ? {
                  code: 'cancelled',
                  message: 'the execution was cancelled while an operation was in flight',
                  details: {},
                }
              : undefined;
    const finalTrace = recorder.finish(outcome, error, {
      limitations,
      ...(this.directResult !== undefined && { directResult: this.directResult }),
    });
    linkToKit(finalTrace, this.host.linkTarget);
    const finishedAt = new Date().toISOString();
    this.finalTraceValue = finalTrace;
    this.resultValue = buildExecutionResult({
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
    this.state = 'closed';
    this.toolCache = undefined;
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
      snapshot: { ...this.resultValue.snapshot } as JsonObject,
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

  private outcomeFor(reason: CloseReason, interrupted: boolean): ExecutionOutcome {
    if (reason === 'deadline') return 'timed_out';
    if (reason === 'cancel') return 'cancelled';
    if (interrupted && reason !== 'connect_failed') return 'cancelled';
    return this.escaped !== undefined ? 'failed' : 'completed';
  }

  private cancelOperation(op: InFlight, recorder: TraceRecorder): void {
    op.cancelled = true;
    const payload: DiagnosticPayload = {
      code: 'operation_cancelled',
      message: `${op.method} was cancelled because the client closed`,
      operation: op.method,
      elapsedMs: Math.round(performance.now() - op.startedAt),
    };
    for (const jsonrpcId of op.jsonrpcIds.length > 0 ? op.jsonrpcIds : [undefined]) {
      recorder.record('diagnostic', {
        phase: 'cleanup',
        origin: 'normalized',
        direction: 'internal',
        server: this.server.name,
        connectionId: this.connectionId,
        ...(jsonrpcId !== undefined && { jsonrpcId }),
        payload,
      });
    }
    op.controller.abort(new M3Error('cancelled', 'client closed'));
  }

  private get sdkClient(): Client {
    return this.sdk as Client;
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
      { operation },
    );
  }

  /** A public operation: must be open; any exception that escapes marks the execution failed. */
  private async operation<T>(name: string, body: () => Promise<T>): Promise<T> {
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

  /** One SDK request with timeout, abort signal, progress and id capture; maps SDK errors. */
  private async request<T>(
    method: string,
    invoke: (options: RequestOptions) => Promise<T>,
    perCall: { timeoutMs?: number; onProgress?: CallToolOptions['onProgress'] } = {},
  ): Promise<T> {
    this.assertOpen(method);
    const timeoutMs = perCall.timeoutMs ?? this.timeoutMs;
    const op: InFlight = {
      method,
      controller: new AbortController(),
      startedAt: performance.now(),
      jsonrpcIds: [],
      cancelled: false,
    };
    this.inFlight.add(op);
    try {
      const options: RequestOptions = {
        timeout: timeoutMs,
        signal: op.controller.signal,
        ...(perCall.onProgress !== undefined && { onprogress: perCall.onProgress }),
      };
      return await (this.tap as RequestTap).captureIds(
        (id) => op.jsonrpcIds.push(id),
        () => invoke(options),
      );
    } catch (error) {
      const mapped = mapSdkError(error, {
        operation: method,
        timeoutMs,
        redactor: this.host.redactor,
        cancelled: op.cancelled,
      });
      this.recordFailure(op, mapped, timeoutMs);
      throw mapped;
    } finally {
      this.inFlight.delete(op);
    }
  }

  private async notify(method: string, send: () => Promise<void>): Promise<void> {
    try {
      await send();
    } catch (error) {
      throw mapSdkError(error, {
        operation: method,
        timeoutMs: this.timeoutMs,
        redactor: this.host.redactor,
        cancelled: false,
      });
    }
  }

  private recordFailure(op: InFlight, error: M3Error, timeoutMs: number): void {
    const recorder = this.recorder;
    if (recorder === undefined || recorder.finished || op.cancelled) return;
    const code =
      error instanceof OperationTimeout
        ? 'operation_timeout'
        : error instanceof TransportError
          ? 'transport_closed'
          : null;
    if (code === null) return;
    recorder.record('diagnostic', {
      phase: 'mcp_call',
      origin: 'normalized',
      direction: 'internal',
      server: this.server.name,
      connectionId: this.connectionId,
      ...(op.jsonrpcIds[0] !== undefined && { jsonrpcId: op.jsonrpcIds[0] }),
      payload: {
        code,
        message: error.message,
        operation: op.method,
        elapsedMs: Math.round(performance.now() - op.startedAt),
        ...(code === 'operation_timeout' && { timeoutMs }),
      } satisfies DiagnosticPayload,
    });
  }

  private fetchAllTools(): Promise<Tool[]> {
    return listAll('tools/list', async (cursor) => {
      const page = await this.request('tools/list', (o) => this.sdkClient.listTools(cursorParams(cursor), o));
      return { items: page.tools, nextCursor: page.nextCursor };
    });
  }

  /** The tool list used for schema validation: fetched once per connection. */
  private cachedTools(): Promise<Map<string, Tool>> {
    if (this.toolCache === undefined) {
      const fetching = this.fetchAllTools().then((tools) => new Map(tools.map((t) => [t.name, t])));
      this.toolCache = fetching;
      fetching.catch(() => {
        if (this.toolCache === fetching) this.toolCache = undefined;
      });
    }
    return this.toolCache;
  }
}

function cursorParams(cursor: string | undefined): { cursor: string } | undefined {
  if (cursor === undefined) return undefined;
  requireString(cursor, 'cursor');
  return { cursor };
}

function requireString(value: unknown, what: string): void {
  if (typeof value !== 'string' || value.length === 0) {
    throw new ModelValidationError(`${what} must be a non-empty string`);
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
