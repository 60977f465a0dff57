import type { JsonObject, JsonValue } from '../../json';
import type { EventDirection, EventKind } from '../../trace/Event';
import type { RecordFields, TraceRecorder } from '../../trace/TraceRecorder';
import type { DiagnosticPayload, TransportPayload } from '../../trace/payloads';
import type { TransportKind } from '../../enums';
import {
  jsonRpcMessageEvent,
  openRequests,
  type JsonRpcMessageContext,
  type PendingRequestMethods,
} from '../../transport/jsonRpcMessageEvent';
import { WireEraTracker } from './WireEraTracker';

/** The scope (session/turn) wire events are tagged with when they are recorded. */
export type WireScope = () => { sessionId?: string; turnId?: string };

/** A capture proxy's verdict on one `tools/call`, as it is put on the request's payload. */
export interface WirePolicyVerdict {
  readonly decision: 'allowed' | 'denied';
  readonly reason: string;
}

/** Extra facts about one message seen by a proxy. */
export interface WireMessageFacts {
  /** The policy verdict when the message is a `tools/call`. */
  readonly policy?: WirePolicyVerdict;
  /** True for an answer the proxy wrote itself (a denial); the server never saw the request. */
  readonly answeredByProxy?: boolean;
  /** Bytes the frame had on the wire when the kept text is shorter (cut by the proxy's bound). */
  readonly originalSizeBytes?: number;
}

/** Which connection of which server a writer records for. */
export interface WireEventWriterOptions {
  readonly recorder: TraceRecorder;
  readonly server: string;
  readonly connectionId: string;
  readonly scope: WireScope;
}

/**
 * Records what a capture proxy saw on one MCP connection into the execution's trace, as wire
 * evidence (origin `wire_observed`): JSON-RPC messages through the shared mapping
 * (`jsonRpcMessageEvent`, the same events the kit's own client records), policy verdicts on the
 * `tools/call` request payload (`policy: { decision, reason }`), proxy answers marked
 * `answeredBy: 'proxy'`, and diagnostics tagged with the agent's session and turn. Never throws.
 */
export class WireEventWriter {
  private readonly pending: PendingRequestMethods = new Map();
  private readonly eras: WireEraTracker;

  constructor(private readonly options: WireEventWriterOptions) {
    this.eras = new WireEraTracker(options.server);
  }

  get server(): string {
    return this.options.server;
  }

  get connectionId(): string {
    return this.options.connectionId;
  }

  /**
   * Records one JSON-RPC message (`message` as parsed; `frame` its text kept as evidence, by
   * default the redacted message serialized).
   */
  message(message: unknown, frame: string | undefined, direction: EventDirection, facts: WireMessageFacts = {}): void {
    const { recorder } = this.options;
    if (recorder.finished) return;
    try {
      const safe = recorder.sanitize(message);
      const text = frame ?? JSON.stringify(safe);
      const { kind, fields } = jsonRpcMessageEvent(safe, text, this.context(direction), this.pending);
      const payload = fields.payload as JsonObject;
      if (facts.policy !== undefined && kind === 'tool.call_requested') {
        payload.policy = { decision: facts.policy.decision, reason: facts.policy.reason };
      }
      if (facts.answeredByProxy === true) payload.answeredBy = 'proxy';
      if (facts.originalSizeBytes !== undefined) fields.rawOriginalSizeBytes = facts.originalSizeBytes;
      recorder.record(kind, fields);
      this.recordEra(kind, direction, payload, safe);
    } catch {
      this.diagnostic('capture_failed', 'a JSON-RPC message seen by the capture proxy could not be recorded', {
        direction,
      });
    }
  }

  /**
   * The era the agent and the server settled on, as an `mcp.initialized` event of this connection
   * (contract §23: the initialization entry of the agent's server), and the diagnostic of a
   * 2025-only agent refused by a 2026-07-28-only server.
   */
  private recordEra(kind: EventKind, direction: EventDirection, payload: JsonObject, message: unknown): void {
    const method = typeof payload.method === 'string' ? payload.method : undefined;
    const found = this.eras.observe({ kind, direction, method, message });
    if (found.initialized !== undefined) {
      this.event('mcp.initialized', {
        phase: 'initialization',
        direction: 'server_to_client',
        payload: found.initialized as unknown as JsonObject,
      });
    }
    if (found.mismatch !== undefined) {
      this.event('diagnostic', { phase: 'initialization', direction: 'internal', payload: found.mismatch });
    }
  }

  /** Records a diagnostic on this connection (optionally naming a request and carrying raw text). */
  diagnostic(
    code: string,
    message: string,
    extra: {
      direction?: EventDirection;
      jsonrpcId?: string | number;
      raw?: string;
      rawMediaType?: string;
      rawOriginalSizeBytes?: number;
      payload?: JsonObject;
      /**
       * Words for a diagnostic a peer can cause once per frame (`non-JSON frames`): it is then
       * rate-limited per connection and code (`TraceRecorder.recordRepeated`), quoting `raw`.
       */
      repeatedAs?: string;
    } = {},
  ): void {
    const payload: DiagnosticPayload & JsonObject = { code, message, ...(extra.payload ?? {}) };
    const fields = {
      phase: 'unknown' as const,
      direction: extra.direction ?? 'internal',
      payload,
      ...(extra.jsonrpcId !== undefined && { jsonrpcId: extra.jsonrpcId }),
      ...(extra.raw !== undefined && {
        raw: extra.raw,
        rawSource: 'mcp' as const,
        rawMediaType: extra.rawMediaType ?? 'text/plain; charset=utf-8',
        ...(extra.rawOriginalSizeBytes !== undefined && { rawOriginalSizeBytes: extra.rawOriginalSizeBytes }),
      }),
    };
    if (extra.repeatedAs === undefined) {
      this.event('diagnostic', fields);
      return;
    }
    const { recorder, server, connectionId } = this.options;
    const raw = extra.raw ?? '';
    try {
      recorder.recordRepeated({
        key: `${connectionId}|${code}`,
        what: extra.repeatedAs,
        fields: { ...this.context(fields.direction), ...fields, server, connectionId },
        sample: { text: raw, bytes: extra.rawOriginalSizeBytes ?? Buffer.byteLength(raw, 'utf8') },
      });
    } catch {
      // Best effort, as for every wire event.
    }
  }

  /** Records a diagnostic `code` and adds `code` to the trace's limitations. */
  limit(code: string, message: string, payload: JsonObject): void {
    this.diagnostic(code, message, { payload });
    try {
      this.options.recorder.addLimitation(code);
    } catch {
      // Best effort, as for every wire event.
    }
  }

  /**
   * Records a `transport_closed` diagnostic for every request the agent sent that is still
   * unanswered (the projection ends those calls with `transport_error`), then forgets them.
   */
  abandonOpenRequests(why: string): void {
    for (const { id, method } of openRequests(this.pending, 'client_to_server')) {
      this.diagnostic('transport_closed', `${why} before ${method} was answered`, {
        jsonrpcId: id,
        payload: { method },
      });
    }
    this.pending.clear();
  }

  /** Records `transport.connected` / `transport.disconnected` for this proxied connection. */
  transport(connected: boolean, transport: TransportKind, instrumented: string, reason?: string): void {
    const payload: TransportPayload = { transport, instrumented, ...(reason !== undefined && { reason }) };
    // The summaries of this connection's repeated diagnostics go before its close.
    if (!connected) this.options.recorder.flushRepeated((key) => key.startsWith(`${this.options.connectionId}|`));
    this.event(connected ? 'transport.connected' : 'transport.disconnected', {
      phase: connected ? 'startup' : 'cleanup',
      direction: 'internal',
      payload,
    });
  }

  /** Records any event on this connection, tagged with server, connection and scope; never throws. */
  event(kind: EventKind, fields: Omit<RecordFields, 'server' | 'connectionId' | 'origin'>): void {
    const { recorder, server, connectionId } = this.options;
    if (recorder.finished) return;
    const scope = this.safeScope();
    try {
      recorder.record(kind, {
        origin: 'wire_observed',
        server,
        connectionId,
        ...(scope.sessionId !== undefined && { sessionId: scope.sessionId }),
        ...(scope.turnId !== undefined && { turnId: scope.turnId }),
        ...fields,
      });
    } catch {
      // Recording is best effort: the trace may have been finished concurrently.
    }
  }

  private context(direction: EventDirection): JsonRpcMessageContext {
    const scope = this.safeScope();
    return {
      origin: 'wire_observed',
      server: this.options.server,
      connectionId: this.options.connectionId,
      direction,
      ...(scope.sessionId !== undefined && { sessionId: scope.sessionId }),
      ...(scope.turnId !== undefined && { turnId: scope.turnId }),
    };
  }

  private safeScope(): { sessionId?: string; turnId?: string } {
    try {
      return this.options.scope() ?? {};
    } catch {
      return {};
    }
  }
}

/** A JSON-RPC id as the trace keeps it (strings and numbers only). */
export function jsonrpcIdOf(value: JsonValue | undefined): string | number | undefined {
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}
