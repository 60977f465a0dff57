import { performance } from 'node:perf_hooks';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { M3Error, OperationTimeout, TransportError } from '../errors';
import type { Redactor } from '../redaction/Redactor';
import type { DiagnosticPayload } from '../trace/payloads';
import type { TraceRecorder } from '../trace/TraceRecorder';
import type { ProgressCallback } from './DirectClientOptions';
import type { ConnectionEnd } from '../transport/StdioConnectionEnd';
import { isConnectionLoss, mapSdkError } from './mapSdkError';
import { RequestCancellation } from './RequestCancellation';
import type { RequestTap } from './RequestTap';

/** One SDK request waiting for its answer. */
interface InFlightRequest {
  readonly method: string;
  /** Aborted by `cancelAll` (a light stand-in for an `AbortController`, see `RequestCancellation`). */
  readonly cancellation: RequestCancellation;
  readonly startedAt: number;
  readonly jsonrpcIds: Array<string | number>;
  cancelled: boolean;
}

/** Where the runner records, and for whom. */
export interface RequestRunnerContext {
  readonly redactor: Redactor;
  readonly server: string;
  readonly connectionId: string;
  readonly defaultTimeoutMs: number;
}

/** Per-request overrides. */
export interface PerRequest {
  readonly timeoutMs?: number;
  readonly onProgress?: ProgressCallback;
}

/**
 * Runs SDK requests for one connection: every request gets `{ timeout, signal }` (and `onprogress`
 * when asked), its JSON-RPC id is captured for the trace, SDK failures are mapped to the contract §4
 * classes, and timeouts / broken connections leave a `diagnostic` event tied to the request.
 * `cancelAll()` aborts everything in flight when the client closes.
 */
export class RequestRunner {
  private readonly context: RequestRunnerContext;
  private readonly inFlight = new Set<InFlightRequest>();
  private tap: RequestTap | undefined;
  private recorder: TraceRecorder | undefined;
  private connectionEnd: ((operation: string) => Promise<ConnectionEnd | undefined>) | undefined;

  constructor(context: RequestRunnerContext) {
    this.context = context;
  }

  /**
   * Connects the runner to the transport tap and the trace recorder of the connection, and to
   * the transport's account of how the connection ended (stdio), for the errors it cut off.
   */
  attach(
    tap: RequestTap,
    recorder: TraceRecorder,
    connectionEnd?: (operation: string) => Promise<ConnectionEnd | undefined>,
  ): void {
    this.tap = tap;
    this.recorder = recorder;
    this.connectionEnd = connectionEnd;
  }

  /** The transport's evidence for a connection loss that cut off `method` (not for a cancel). */
  private async endEvidence(error: unknown, method: string, cancelled: boolean): Promise<ConnectionEnd | undefined> {
    if (cancelled || this.connectionEnd === undefined || !isConnectionLoss(error)) return undefined;
    return this.connectionEnd(method).catch(() => undefined);
  }

  /** How many requests are waiting for an answer. */
  get pending(): number {
    return this.inFlight.size;
  }

  /** Runs one SDK request; rejects with an `M3Error`. */
  async run<T>(method: string, invoke: (options: RequestOptions) => Promise<T>, perCall: PerRequest = {}): Promise<T> {
    const tap = this.tap;
    if (tap === undefined) throw new M3Error('client_not_connected', `${method} needs a connected client`);
    const timeoutMs = perCall.timeoutMs ?? this.context.defaultTimeoutMs;
    const request: InFlightRequest = {
      method,
      cancellation: new RequestCancellation(),
      startedAt: performance.now(),
      jsonrpcIds: [],
      cancelled: false,
    };
    this.inFlight.add(request);
    try {
      const options: RequestOptions = { timeout: timeoutMs, signal: request.cancellation.asSignal() };
      if (perCall.onProgress !== undefined) options.onprogress = perCall.onProgress;
      return await tap.captureIds(
        (id) => request.jsonrpcIds.push(id),
        () => invoke(options),
      );
    } catch (error) {
      const connectionEnd = await this.endEvidence(error, method, request.cancelled);
      const mapped = mapSdkError(error, {
        operation: method,
        timeoutMs,
        redactor: this.context.redactor,
        cancelled: request.cancelled,
        ...(connectionEnd !== undefined && { connectionEnd }),
      });
      this.recordFailure(request, mapped, timeoutMs);
      throw mapped;
    } finally {
      this.inFlight.delete(request);
    }
  }

  /** Sends a notification through the SDK; rejects with an `M3Error`. */
  async notify(method: string, send: () => Promise<void>): Promise<void> {
    try {
      await send();
    } catch (error) {
      const connectionEnd = await this.endEvidence(error, method, false);
      throw mapSdkError(error, {
        operation: method,
        timeoutMs: this.context.defaultTimeoutMs,
        redactor: this.context.redactor,
        cancelled: false,
        ...(connectionEnd !== undefined && { connectionEnd }),
      });
    }
  }

  /**
   * Aborts every request in flight (each rejects with `OperationCancelled`) and records an
   * `operation_cancelled` diagnostic per request. Returns how many were cancelled.
   */
  cancelAll(): number {
    const cancelled = [...this.inFlight];
    for (const request of cancelled) {
      request.cancelled = true;
      const payload: DiagnosticPayload = {
        code: 'operation_cancelled',
        message: `${request.method} was cancelled because the client closed`,
        operation: request.method,
        elapsedMs: Math.round(performance.now() - request.startedAt),
      };
      for (const jsonrpcId of request.jsonrpcIds.length > 0 ? request.jsonrpcIds : [undefined]) {
        this.record('cleanup', payload, jsonrpcId);
      }
      request.cancellation.abort(new M3Error('cancelled', 'client closed'));
    }
    return cancelled.length;
  }

  private recordFailure(request: InFlightRequest, error: M3Error, timeoutMs: number): void {
    if (request.cancelled) return;
    const code =
      error instanceof OperationTimeout
        ? 'operation_timeout'
        : error instanceof TransportError
          ? 'transport_closed'
          : null;
    if (code === null) return;
    const payload: DiagnosticPayload = {
      code,
      message: error.message,
      operation: request.method,
      elapsedMs: Math.round(performance.now() - request.startedAt),
      ...(code === 'operation_timeout' && { timeoutMs }),
    };
    this.record('mcp_call', payload, request.jsonrpcIds[0]);
  }

  private record(
    phase: 'cleanup' | 'mcp_call',
    payload: DiagnosticPayload,
    jsonrpcId: string | number | undefined,
  ): void {
    const recorder = this.recorder;
    if (recorder === undefined || recorder.finished) return;
    recorder.record('diagnostic', {
      phase,
      origin: 'normalized',
      direction: 'internal',
      server: this.context.server,
      connectionId: this.context.connectionId,
      ...(jsonrpcId !== undefined && { jsonrpcId }),
      payload,
    });
  }
}
