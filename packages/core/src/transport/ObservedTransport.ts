import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { JsonValue } from '../json';
import { REDACTED } from '../redaction/Redactor';
import type { EventDirection, EventKind, LifecyclePhase } from '../trace/Event';
import type { DeferredFallback, RecordFields, TraceRecorder } from '../trace/TraceRecorder';
import type { DiagnosticPayload, ErrorResponsePayload, ResponsePayload, TransportPayload } from '../trace/payloads';
import { transportKindOf } from './transportKinds';

/** Who an observed transport records for. */
export interface ObservedTransportOptions {
  recorder: TraceRecorder;
  /** Server binding name put on every event. */
  server: string;
  connectionId: string;
  /**
   * The session and turn a message belongs to, read as it passes (agent harnesses set it, so wire
   * events carry the turn their reported call has and the projector can correlate them).
   */
  scope?: () => { sessionId?: string; turnId?: string };
}

/** What this transport passes to `TraceRecorder.record` (server and connection are added). */
type MessageFields = Omit<RecordFields, 'server' | 'connectionId'>;

type MessageHandler = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

const MCP_CALL_METHODS: ReadonlySet<string> = new Set([
  'tools/call',
  'tools/list',
  'resources/read',
  'resources/list',
  'resources/templates/list',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/get',
  'prompts/list',
  'completion/complete',
]);

/** The kind recorded instead of `mcp.request` for some methods (upstream's direct-trace rule). */
const REQUEST_KINDS: Readonly<Record<string, EventKind>> = {
  'tools/call': 'tool.call_requested',
  'sampling/createMessage': 'sampling.request',
  'elicitation/create': 'elicitation.request',
};
/** The kind recorded instead of `mcp.response` for some methods. */
const RESPONSE_KINDS: Readonly<Record<string, EventKind>> = {
  'tools/call': 'tool.result_received',
  'sampling/createMessage': 'sampling.response',
  'elicitation/create': 'elicitation.response',
};

function phaseOf(method: string | undefined): LifecyclePhase {
  if (method === 'initialize') return 'initialization';
  return method !== undefined && MCP_CALL_METHODS.has(method) ? 'mcp_call' : 'idle';
}

function notificationKind(method: string): EventKind {
  if (method === 'notifications/progress') return 'mcp.progress';
  if (method === 'notifications/cancelled') return 'mcp.cancellation_requested';
  return 'mcp.notification';
}

const opposite = (d: EventDirection): EventDirection =>
  d === 'client_to_server' ? 'server_to_client' : 'client_to_server';

/**
 * Wraps an SDK transport and records every JSON-RPC message in both directions as it passes: one
 * decoded event per message, which also carries the redacted, bounded serialized frame as raw
 * evidence (`event.rawEvidence`, preview fields merged into the payload). Kinds: `mcp.request`
 * (`tool.call_requested` for `tools/call`; `sampling.request` / `elicitation.request` for those
 * server requests), `mcp.response` (`tool.result_received`, `sampling.response`,
 * `elicitation.response` likewise; paired by JSON-RPC id and direction), `mcp.error`,
 * `mcp.notification`, `mcp.progress` and `mcp.cancellation_requested`. Transport errors become
 * `diagnostic` events and the close `transport.disconnected`. Recording never breaks the transport.
 * A message is redacted and serialized as it passes, which fixes its event's content, place and
 * time; the recorder builds the event (frame evidence, sha256) when the loop is idle or anything
 * reads the trace (`TraceRecorder.recordLater`), so a caller awaiting a response does not wait.
 */
export class ObservedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: MessageHandler;
  private readonly inner: Transport;
  private readonly options: ObservedTransportOptions;
  /** Open requests by direction and typed id, to name the method of their response. */
  private readonly pending = new Map<string, string>();
  private closeRequested = false;
  private lastErrorName: string | undefined;
  private disconnected = false;
  /** What the recorder stores instead when building a deferred message event fails, by direction. */
  private readonly fallbacks: readonly [DeferredFallback, DeferredFallback];

  constructor(inner: Transport, options: ObservedTransportOptions) {
    this.inner = inner;
    this.options = options;
    const fallback = (direction: EventDirection): DeferredFallback => ({
      kind: 'diagnostic',
      fields: {
        origin: 'normalized',
        server: options.server,
        connectionId: options.connectionId,
        phase: 'unknown',
        direction,
        payload: { code: 'capture_failed', message: 'a JSON-RPC message could not be recorded' },
      },
    });
    this.fallbacks = [fallback('client_to_server'), fallback('server_to_client')];
    inner.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
      this.observe(message, 'server_to_client');
      this.onmessage?.(message, extra);
    };
    inner.onerror = (error: Error) => {
      this.observeError(error);
      this.onerror?.(error);
    };
    inner.onclose = () => {
      this.observeClose();
      this.onclose?.();
    };
  }

  /** Starts the wrapped transport. */
  start(): Promise<void> {
    return this.inner.start();
  }

  /**
   * Hands the message to the transport, then records it before returning. The SDK transports
   * deliver answers asynchronously, so the event still precedes any response in the trace, while
   * the server starts working during the recording instead of after it.
   */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const sent = this.inner.send(message, options);
    this.observe(message, 'client_to_server');
    return sent;
  }

  /** Closes the wrapped transport; the close is recorded as `closed_by_client`. */
  close(): Promise<void> {
    this.closeRequested = true;
    return this.inner.close();
  }

  /** The wrapped transport's session id (Streamable HTTP). */
  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** Passes the negotiated protocol version on. */
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  private record(kind: EventKind, fields: MessageFields): void {
    const { recorder, server, connectionId } = this.options;
    if (recorder.finished) return;
    // Object.assign rather than spreads: this runs for every message.
    recorder.record(kind, Object.assign({ origin: 'normalized' as const, server, connectionId }, fields));
  }

  private observe(message: JSONRPCMessage, direction: EventDirection): void {
    try {
      this.observeMessage(message, direction);
    } catch {
      try {
        this.record('diagnostic', {
          phase: 'unknown',
          direction,
          payload: { code: 'capture_failed', message: 'a JSON-RPC message could not be recorded' },
        });
      } catch {
        // Recording is best effort; the message itself still goes through.
      }
    }
  }

  private observeMessage(message: JSONRPCMessage, direction: EventDirection): void {
    const { recorder } = this.options;
    if (recorder.finished) return;
    // One walk gives the redacted plain JSON used for both the payload and the stored frame.
    const safe = recorder.sanitize(message);
    if (safe === null || typeof safe !== 'object' || Array.isArray(safe)) {
      this.recordMalformed(JSON.stringify(safe), direction, undefined);
      return;
    }
    const frame = JSON.stringify(safe);
    const rawRedacted = frame.includes(REDACTED);
    const id = safe.id;
    const jsonrpcId = typeof id === 'string' || typeof id === 'number' ? id : undefined;
    const method = typeof safe.method === 'string' ? safe.method : undefined;
    const { server, connectionId } = this.options;
    const fallback = this.fallbacks[direction === 'client_to_server' ? 0 : 1];
    const scope = this.options.scope?.();
    // Complete fields handed straight to the recorder (no merge with server and connection). The
    // payload is built from `safe`, a copy owned here, and the frame is a string, so the recorder
    // may build the event after the message went on (`recordLater`).
    const fieldsFor = (phase: LifecyclePhase, payload: object): RecordFields => ({
      origin: 'normalized',
      server,
      connectionId,
      direction,
      jsonrpcId,
      phase,
      payload,
      preRedacted: true,
      raw: frame,
      rawSource: 'mcp',
      rawRedacted,
      ...(scope?.sessionId !== undefined && { sessionId: scope.sessionId }),
      ...(scope?.turnId !== undefined && { turnId: scope.turnId }),
    });

    if (method !== undefined) {
      const phase = phaseOf(method);
      const payload = { method, params: safe.params ?? null };
      if (jsonrpcId !== undefined) {
        this.pending.set(`${direction}|${typeof jsonrpcId}|${jsonrpcId}`, method);
        recorder.recordLater(REQUEST_KINDS[method] ?? 'mcp.request', fieldsFor(phase, payload), fallback);
      } else {
        recorder.recordLater(notificationKind(method), fieldsFor(phase, payload), fallback);
      }
      return;
    }
    if (jsonrpcId !== undefined && ('result' in safe || 'error' in safe)) {
      const key = `${opposite(direction)}|${typeof jsonrpcId}|${jsonrpcId}`;
      const requestMethod = this.pending.get(key) ?? 'unknown';
      this.pending.delete(key);
      const phase = phaseOf(requestMethod);
      if ('error' in safe) {
        const error = (typeof safe.error === 'object' && safe.error !== null ? safe.error : {}) as Record<
          string,
          JsonValue
        >;
        const payload: ErrorResponsePayload = {
          method: requestMethod,
          error: {
            code: typeof error.code === 'number' ? error.code : null,
            message: typeof error.message === 'string' ? error.message : '',
            data: error.data ?? null,
          },
        };
        recorder.recordLater('mcp.error', fieldsFor(phase, payload), fallback);
        return;
      }
      const payload: ResponsePayload = { method: requestMethod, result: safe.result ?? null };
      recorder.recordLater(RESPONSE_KINDS[requestMethod] ?? 'mcp.response', fieldsFor(phase, payload), fallback);
      return;
    }
    this.recordMalformed(frame, direction, jsonrpcId);
  }

  private recordMalformed(frame: string, direction: EventDirection, jsonrpcId: string | number | undefined): void {
    const payload: DiagnosticPayload = {
      code: 'malformed_message',
      message: 'a message that is neither a JSON-RPC request, response nor notification',
    };
    this.record('diagnostic', {
      direction,
      ...(jsonrpcId !== undefined && { jsonrpcId }),
      phase: 'unknown',
      payload,
      raw: frame,
      rawSource: 'mcp',
    });
  }

  private observeError(error: Error): void {
    // The error's class and code only: SDK messages can quote payloads or command lines.
    const name = error?.constructor?.name ?? 'Error';
    const code = (error as { code?: unknown } | undefined)?.code;
    this.lastErrorName = name;
    try {
      this.record('diagnostic', {
        phase: 'unknown',
        direction: 'internal',
        payload: {
          code: 'transport_error',
          message: `the transport reported ${name}${typeof code === 'string' || typeof code === 'number' ? ` (${code})` : ''}`,
        },
      });
    } catch {
      // Best effort.
    }
  }

  private observeClose(): void {
    if (this.disconnected) return;
    this.disconnected = true;
    const transport = transportKindOf(this.inner) ?? 'stdio';
    const reason = this.closeRequested
      ? 'closed_by_client'
      : this.lastErrorName !== undefined
        ? 'transport_error'
        : 'closed_by_server';
    const payload: TransportPayload = { transport, instrumented: 'sdk-transport-wrapper', reason };
    try {
      this.record('transport.disconnected', {
        phase: this.closeRequested ? 'cleanup' : 'unknown',
        direction: 'internal',
        payload,
      });
    } catch {
      // Best effort.
    }
  }
}
