import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { EventDirection, EventKind } from '../trace/Event';
import type { DeferredFallback, RecordFields, TraceRecorder } from '../trace/TraceRecorder';
import type { TransportPayload } from '../trace/payloads';
import { jsonRpcMessageEvent, type JsonRpcMessageContext, type PendingRequestMethods } from './jsonRpcMessageEvent';
import { wasReported } from './ReportingReadBuffer';
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

/**
 * Wraps an SDK transport and records every JSON-RPC message in both directions as it passes: one
 * decoded event per message, which also carries the redacted, bounded serialized frame as raw
 * evidence (`event.rawEvidence`, preview fields merged into the payload). Kinds: `mcp.request`
 * (`tool.call_requested` for `tools/call`; `sampling.request` / `elicitation.request` for those
 * server requests), `mcp.response` (`tool.result_received`, `sampling.response`,
 * `elicitation.response` likewise; paired by JSON-RPC id and direction), `mcp.error`,
 * `mcp.notification`, `mcp.progress` and `mcp.cancellation_requested`. Transport errors become
 * `diagnostic` events (rate-limited: see `TraceRecorder.recordRepeated`; summaries are recorded
 * at the close) and the close `transport.disconnected`. Recording never breaks the transport.
 * A message is redacted into an owned copy as it passes, which fixes its event's content, place
 * and time; the recorder serializes it and builds the event (kind, frame evidence, sha256) when the
 * loop is idle or anything reads the trace (`TraceRecorder.recordLater`), so a caller awaiting a
 * response does not wait for that work.
 */
export class ObservedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: MessageHandler;
  private readonly inner: Transport;
  private readonly options: ObservedTransportOptions;
  /** Open requests by direction and typed id, to name the method of their response. */
  private readonly pending: PendingRequestMethods = new Map();
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
    const { recorder, server, connectionId } = this.options;
    if (recorder.finished) return;
    // One walk now gives the redacted plain JSON used for both the payload and the stored frame: a
    // copy owned here, so the message may go on at once. Its serialization, the event's kind and
    // fields (and the pairing of responses with requests, in order) are left to the recorder
    // (`recordLater`), which builds the event when the loop is idle: off a waiting caller's path.
    const safe = recorder.sanitize(message);
    const scope = this.options.scope?.();
    const context: JsonRpcMessageContext = {
      origin: 'normalized',
      server,
      connectionId,
      direction,
      ...(scope?.sessionId !== undefined && { sessionId: scope.sessionId }),
      ...(scope?.turnId !== undefined && { turnId: scope.turnId }),
    };
    recorder.recordLater(
      () => jsonRpcMessageEvent(safe, JSON.stringify(safe), context, this.pending),
      this.fallbacks[direction === 'client_to_server' ? 0 : 1],
    );
  }

  private observeError(error: Error): void {
    // The error's class and code only: SDK messages can quote payloads or command lines.
    const name = error?.constructor?.name ?? 'Error';
    const code = (error as { code?: unknown } | undefined)?.code;
    this.lastErrorName = name;
    const { recorder, server, connectionId } = this.options;
    // A stdout line the read buffer reported is recorded already (`recordUnreadableLine`).
    if (recorder.finished || wasReported(error)) return;
    const shown = `${name}${typeof code === 'string' || typeof code === 'number' ? ` (${code})` : ''}`;
    try {
      // Rate-limited: a peer can cause one error per line (an HTTP stream of garbage, say).
      recorder.recordRepeated({
        key: `${connectionId}|transport_error|${shown}`,
        what: `transport errors (${shown})`,
        fields: {
          origin: 'normalized',
          server,
          connectionId,
          phase: 'unknown',
          direction: 'internal',
          payload: { code: 'transport_error', message: `the transport reported ${shown}` },
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
      // The summaries of this connection's repeated diagnostics go before its close.
      const prefix = `${this.options.connectionId}|`;
      this.options.recorder.flushRepeated((key) => key.startsWith(prefix));
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
