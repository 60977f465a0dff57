import type { ExecutionOutcome } from '../enums';
import { M3Error } from '../errors';
import type { ErrorInfo } from '../execution/ExecutionResult';
import { newId } from '../ids';
import type { JsonObject, JsonValue } from '../json';
import type { Redactor } from '../redaction/Redactor';
import type { EventKind, TraceEvent } from './Event';
import type { RawEvidenceBlob } from './EvidenceRef';
import { EventEvidence } from './EventEvidence';
import type { ExecutionFinishedPayload } from './payloads';
import { DEFAULT_RAW_LIMITS } from './rawCapture';
import type {
  DeferredEvent,
  DeferredFallback,
  FinishExtras,
  PendingRecord,
  RecordFields,
  TraceRecorderOptions,
} from './RecorderInputs';
import { DIAGNOSTICS_SUMMARIZED, RepeatedDiagnostics, type RepeatedDiagnosticInput } from './RepeatedDiagnostics';
import { sanitizeJson } from './sanitizeJson';
import { TraceClock } from './TraceClock';
import { TraceResult } from './TraceResult';

/** The limitation every direct trace carries: it sees decoded messages, not the raw wire. */
export const CAPTURE_INCOMPLETE = 'capture_incomplete';
export { RAW_EVIDENCE_BUDGET_EXCEEDED } from './EventEvidence';
export { EVIDENCE_BUDGET_EXHAUSTED } from './EvidenceBudget';
export { DIAGNOSTICS_SUMMARIZED } from './RepeatedDiagnostics';

export type {
  DeferredEvent,
  DeferredFallback,
  FinishExtras,
  RecordFields,
  TraceRecorderOptions,
} from './RecorderInputs';

/** Events `recordLater` holds at most before it builds them at once. */
const MAX_PENDING = 256;

/**
 * Records the events of one execution: numbers them 0..n-1, stamps ISO wall-clock time and a
 * monotonic offset, redacts every payload with the kit's redactor, and keeps raw frames and stderr
 * as redacted, bounded, sha256-addressed evidence. `finish` appends `execution.finished`.
 */
export class TraceRecorder {
  /** The execution these events belong to. */
  readonly executionId: string;
  /** The kit's redactor, applied to every payload and raw frame. */
  readonly redactor: Redactor;
  private traceIdValue: string;
  private readonly clock: TraceClock;
  private readonly baseLimitations: string[];
  private readonly extraLimitations = new Set<string>();
  private readonly eventList: TraceEvent[] = [];
  private readonly bounds: EventEvidence;
  private readonly repeated = new RepeatedDiagnostics();
  private readonly listeners = new Set<(e: TraceEvent) => void>();
  private final: TraceResult | null = null;
  /** Events accepted by `recordLater` and not built yet, in order (see `recordLater`). */
  private pending: PendingRecord[] = [];
  private flushScheduled = false;

  constructor(options: TraceRecorderOptions) {
    this.executionId = options.executionId;
    this.redactor = options.redactor;
    this.clock = new TraceClock(options.clock);
    this.traceIdValue = options.traceId ?? newId('trace');
    this.bounds = new EventEvidence({
      redactor: options.redactor,
      limits: { ...DEFAULT_RAW_LIMITS, ...options.rawLimits },
      addLimitation: (limitation) => this.extraLimitations.add(limitation),
    });
    this.baseLimitations = options.limitations ?? [CAPTURE_INCOMPLETE];
  }

  /** The trace id (set from the `execution.created` payload when that carries one). */
  get traceId(): string {
    return this.traceIdValue;
  }

  /** Events recorded so far, in order. */
  get events(): readonly TraceEvent[] {
    this.flushPending();
    return this.eventList;
  }

  /** Raw evidence blobs kept so far (deduplicated by sha256). */
  get evidence(): readonly RawEvidenceBlob[] {
    this.flushPending();
    return this.bounds.evidence;
  }

  /** True once `finish` has run; later `record` calls throw. */
  get finished(): boolean {
    return this.final !== null;
  }

  /** Redacted plain JSON of `value` (what `record` does to a payload); pass it with `preRedacted`. */
  sanitize(value: unknown): JsonValue {
    return sanitizeJson(value, this.redactor) ?? null;
  }

  /** Milliseconds since the recorder was created, on the monotonic clock. */
  now(): number {
    return this.clock.now();
  }

  /** Adds a limitation (e.g. `cleanup_failed`) to the finished trace. */
  addLimitation(limitation: string): void {
    this.extraLimitations.add(limitation);
  }

  /** Current limitations, base first. */
  get limitations(): string[] {
    this.flushPending();
    return [...new Set([...this.baseLimitations, ...this.extraLimitations])];
  }

  /** Calls `listener` with every event recorded from now on; returns the unsubscribe function. */
  subscribe(listener: (e: TraceEvent) => void): () => void {
    this.flushPending();
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /**
   * Records one event. The payload is turned into plain JSON and redacted (see `sanitizeJson`); `raw`
   * is redacted, bounded and stored, its reference set on `event.rawEvidence` and its preview merged
   * into the payload (`source, mediaType, preview, previewTruncated, sizeBytes, truncated, redacted`,
   * as a `raw.frame` event carries them), or put in `payload.stderr` for `rawSource: 'process_stderr'`.
   */
  record(kind: EventKind, fields: RecordFields): TraceEvent {
    this.assertOpen(kind);
    this.flushPending();
    return this.build(kind, fields, undefined);
  }

  /**
   * Records an event whose inputs are final (a `preRedacted` payload the caller owns and will not
   * change, an immutable `raw` string), building it later: the event gets its place in the order
   * and its time now, but the evidence work (redaction of the frame, sha256, bounding) and the
   * event object are done when the event loop is next idle, or as soon as anything reads or
   * records (`events`, `evidence`, `limitations`, `snapshot`, `subscribe`, `record`, `finish`).
   * The trace is therefore the same as if `record` had been called, while a client waiting for a
   * response does not wait for its recording. With subscribers the event is built at once (they
   * see it as it happens). If building throws, `fallback` is recorded in its place.
   */
  recordLater(kind: EventKind, fields: RecordFields, fallback?: DeferredFallback): void;
  /** The same with kind and fields made by `make` at build time (in order, so it may keep state). */
  recordLater(make: () => DeferredEvent, fallback?: DeferredFallback): void;
  recordLater(
    kindOrMake: EventKind | (() => DeferredEvent),
    fieldsOrFallback?: RecordFields | DeferredFallback,
    lastFallback?: DeferredFallback,
  ): void {
    const deferred = typeof kindOrMake === 'function';
    this.assertOpen(deferred ? 'a deferred event' : kindOrMake);
    const event = deferred ? kindOrMake : { kind: kindOrMake, fields: fieldsOrFallback as RecordFields };
    const fallback = deferred ? (fieldsOrFallback as DeferredFallback | undefined) : lastFallback;
    if (this.listeners.size > 0) {
      this.flushPending();
      this.buildOrFallback({ event, offsetMs: this.now(), fallback });
      return;
    }
    const offsetMs = this.now();
    this.clock.use(offsetMs);
    this.pending.push({ event, offsetMs, fallback });
    if (this.pending.length >= MAX_PENDING) {
      this.flushPending();
    } else if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        this.flushScheduled = false;
        this.flushPending();
      }).unref();
    }
  }

  private assertOpen(kind: string): void {
    if (this.final === null) return;
    throw new M3Error('trace_finalized', `cannot record ${kind}: the trace of ${this.executionId} is finished`);
  }

  /** Builds every pending event, in order. */
  private flushPending(): void {
    if (this.pending.length === 0) return;
    const pending = this.pending;
    this.pending = [];
    for (const entry of pending) this.buildOrFallback(entry);
  }

  private buildOrFallback(entry: PendingRecord): void {
    try {
      const { kind, fields } = typeof entry.event === 'function' ? entry.event() : entry.event;
      this.build(kind, fields, entry.offsetMs);
    } catch {
      if (entry.fallback === undefined) return;
      try {
        this.build(entry.fallback.kind, entry.fallback.fields, entry.offsetMs);
      } catch {
        // Recording is best effort for deferred events, as for the transports that defer them.
      }
    }
  }

  /**
   * Records a diagnostic a peer can cause once per line (see `RepeatedDiagnostics`): the first 20
   * of a key one by one, then only counted until `flushRepeated` or `finish` records the summary.
   */
  recordRepeated(input: RepeatedDiagnosticInput): void {
    if (this.final !== null) return;
    this.flushPending();
    const fields = this.repeated.admit(input);
    if (fields !== undefined) this.build('diagnostic', fields, undefined);
    else this.extraLimitations.add(DIAGNOSTICS_SUMMARIZED);
  }

  /** Records now the summaries of the repeated diagnostics whose key matches (e.g. a closed connection's). */
  flushRepeated(filter?: (key: string) => boolean): void {
    if (this.final !== null) return;
    this.flushPending();
    for (const fields of this.repeated.drain(filter)) this.build('diagnostic', fields, undefined, true);
  }

  /**
   * Builds, stores and announces one event (`acceptedAtMs`: when `recordLater` took it). Past the budget it
   * is reduced or dropped (returned, not stored); `exempt` events (the recorder's summaries) go whole.
   */
  private build(kind: EventKind, fields: RecordFields, acceptedAtMs: number | undefined, exempt = false): TraceEvent {
    const plain = fields.preRedacted === true ? (fields.payload as JsonObject) : this.sanitize(fields.payload);
    let payload: JsonObject = plain !== null && typeof plain === 'object' && !Array.isArray(plain) ? plain : {};
    if (kind === 'execution.created' && this.eventList.length === 0) {
      if (typeof payload.traceId === 'string' && payload.traceId !== '') this.traceIdValue = payload.traceId;
      else payload = { ...payload, traceId: this.traceIdValue };
    }
    const bounded = this.bounds.bound(kind, fields, payload, exempt);
    const sequence = this.eventList.length;
    const offsetMs = acceptedAtMs ?? this.now();
    this.clock.use(offsetMs);
    // Built by assignment, not conditional spreads: this runs for every message of a connection.
    const event: { -readonly [K in keyof TraceEvent]: TraceEvent[K] } = {
      schemaVersion: 1,
      eventId: `evt-${this.executionId}-${sequence}`,
      sequence,
      kind,
      executionId: this.executionId,
      timestamp: this.clock.isoAt(offsetMs),
      offsetMs,
      phase: fields.phase ?? 'unknown',
      origin: fields.origin ?? 'normalized',
      payload: Object.freeze(bounded.payload),
    };
    if (fields.direction !== undefined) event.direction = fields.direction;
    if (fields.server !== undefined) event.server = fields.server;
    if (fields.connectionId !== undefined) event.connectionId = fields.connectionId;
    if (fields.sessionId !== undefined) event.sessionId = fields.sessionId;
    if (fields.turnId !== undefined) event.turnId = fields.turnId;
    if (fields.jsonrpcId !== undefined) event.jsonrpcId = fields.jsonrpcId;
    if (bounded.rawEvidence !== undefined) event.rawEvidence = bounded.rawEvidence;
    Object.freeze(event);
    if (bounded.dropped) return event;
    this.eventList.push(event);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A failing subscriber must never break recording or the transport it observes.
      }
    }
    return event;
  }

  /** The trace so far: partial and not finalized (or the final trace once finished). */
  snapshot(): TraceResult {
    if (this.final !== null) return this.final;
    this.flushPending();
    return new TraceResult({
      traceId: this.traceIdValue,
      executionId: this.executionId,
      completeness: 'partial',
      limitations: this.limitations,
      events: [...this.eventList],
    });
  }

  /**
   * Appends `execution.finished` with the outcome (and the redacted error), freezes the recorder
   * and returns the finalized trace. A second call returns the same trace.
   */
  finish(outcome: ExecutionOutcome, error?: ErrorInfo, extras: FinishExtras = {}): TraceResult {
    if (this.final !== null) return this.final;
    this.flushPending();
    for (const fields of this.repeated.drain()) this.build('diagnostic', fields, undefined, true);
    const exhausted = this.bounds.exhaustedDiagnostic();
    if (exhausted !== undefined) this.build('diagnostic', exhausted, undefined, true);
    for (const limitation of extras.limitations ?? []) this.extraLimitations.add(limitation);
    const limitations = this.limitations;
    const payload: ExecutionFinishedPayload = {
      outcome,
      completeness: 'partial',
      limitations,
      ...(error !== undefined && { error: { code: error.code, message: error.message, details: error.details } }),
      ...(extras.directResult !== undefined && { directResult: extras.directResult }),
    };
    this.record('execution.finished', { phase: 'terminal', origin: 'normalized', payload });
    this.final = new TraceResult({
      traceId: this.traceIdValue,
      executionId: this.executionId,
      completeness: 'partial',
      limitations,
      events: [...this.eventList],
    });
    this.listeners.clear();
    return this.final;
  }
}
