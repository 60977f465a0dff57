/**
 * Test helper that appends realistic, numbered events for one execution, the way the trace
 * recorder stamps them. Used by `buildDirectTrace`, `buildAgentTrace` and edge-case tests.
 */
import type { ExecutionOutcome, RuntimeKind } from '../../../core/src/enums/index';
import { newId } from '../../../core/src/ids';
import type { JsonObject, JsonValue } from '../../../core/src/json';
import type { EventDirection, EventKind, EventOrigin, LifecyclePhase, TraceEvent } from '../../../core/src/trace/Event';
import type { EvidenceRef } from '../../../core/src/trace/EvidenceRef';
import { TraceResult, type TraceResultData } from '../../../core/src/trace/TraceResult';

/** Fields of one event besides those the builder numbers and stamps. */
export interface EventFields {
  payload?: JsonObject;
  phase?: LifecyclePhase;
  origin?: EventOrigin;
  direction?: EventDirection;
  server?: string;
  connectionId?: string;
  sessionId?: string;
  turnId?: string;
  jsonrpcId?: string | number;
  rawEvidence?: EvidenceRef;
  /** Milliseconds to advance the clock before this event (default 1). */
  afterMs?: number;
}

/** Builds a numbered event list for one execution; `finish()` appends `execution.finished`. */
export class TraceEventListBuilder {
  readonly executionId: string;
  readonly traceId: string;
  readonly events: TraceEvent[] = [];
  private offsetMs = 0;
  private readonly startedAt: number;

  constructor(
    options: {
      executionId?: string;
      traceId?: string;
      runtime?: RuntimeKind;
      servers?: JsonObject[];
      startedAt?: string;
      created?: Partial<JsonObject>;
    } = {},
  ) {
    this.executionId = options.executionId ?? newId('exec');
    this.traceId = options.traceId ?? newId('trace');
    this.startedAt = Date.parse(options.startedAt ?? '2026-01-01T00:00:00.000Z');
    this.add('execution.created', {
      phase: 'preflight',
      direction: 'internal',
      afterMs: 0,
      payload: {
        traceId: this.traceId,
        runtime: options.runtime ?? 'direct',
        runId: null,
        suiteName: null,
        caseId: null,
        servers: options.servers ?? [],
        ...(options.created as JsonObject | undefined),
      },
    });
  }

  /** Appends one event and returns it. */
  add(kind: EventKind, fields: EventFields = {}): TraceEvent {
    this.offsetMs += fields.afterMs ?? 1;
    const sequence = this.events.length;
    const event: TraceEvent = {
      schemaVersion: 1,
      eventId: `evt-${this.executionId}-${sequence}`,
      sequence,
      kind,
      executionId: this.executionId,
      timestamp: new Date(this.startedAt + this.offsetMs).toISOString(),
      offsetMs: this.offsetMs,
      phase: fields.phase ?? 'unknown',
      origin: fields.origin ?? 'normalized',
      payload: fields.payload ?? {},
      ...(fields.direction !== undefined ? { direction: fields.direction } : {}),
      ...(fields.server !== undefined ? { server: fields.server } : {}),
      ...(fields.connectionId !== undefined ? { connectionId: fields.connectionId } : {}),
      ...(fields.sessionId !== undefined ? { sessionId: fields.sessionId } : {}),
      ...(fields.turnId !== undefined ? { turnId: fields.turnId } : {}),
      ...(fields.jsonrpcId !== undefined ? { jsonrpcId: fields.jsonrpcId } : {}),
      ...(fields.rawEvidence !== undefined ? { rawEvidence: fields.rawEvidence } : {}),
    };
    this.events.push(event);
    return event;
  }

  /** The trace data so far (not finalized), for tests that tamper with events. */
  data(limitations: string[] = ['capture_incomplete']): TraceResultData {
    return {
      traceId: this.traceId,
      executionId: this.executionId,
      completeness: limitations.length > 0 ? 'partial' : 'complete',
      limitations,
      events: [...this.events],
    };
  }

  /** Appends `execution.finished` and returns the finalized trace. */
  finish(
    outcome: ExecutionOutcome = 'completed',
    options: { limitations?: string[]; error?: JsonObject; directResult?: JsonValue } = {},
  ): TraceResult {
    const limitations = options.limitations ?? ['capture_incomplete'];
    this.add('execution.finished', {
      phase: 'terminal',
      direction: 'internal',
      payload: {
        outcome,
        completeness: limitations.length > 0 ? 'partial' : 'complete',
        limitations,
        ...(options.error !== undefined ? { error: options.error } : {}),
        ...(options.directResult !== undefined ? { directResult: options.directResult } : {}),
      },
    });
    return new TraceResult(this.data(limitations));
  }
}
