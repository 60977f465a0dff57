import { performance } from 'node:perf_hooks';
import type { ExecutionOutcome } from '../enums';
import { M3Error } from '../errors';
import type { ErrorInfo } from '../execution/ExecutionResult';
import { newId } from '../ids';
import type { JsonObject, JsonValue } from '../json';
import type { Redactor } from '../redaction/Redactor';
import type { EventDirection, EventKind, EventOrigin, LifecyclePhase, TraceEvent } from './Event';
import type { EvidenceRef, RawEvidenceBlob } from './EvidenceRef';
import type { ExecutionFinishedPayload } from './payloads';
import { boundRaw, DEFAULT_RAW_LIMITS, type RawEvidenceLimits, type RawEvidenceSource } from './rawCapture';
import type { StderrCapture } from './TraceEntry';
import { sanitizeJson } from './sanitizeJson';
import { TraceResult } from './TraceResult';

/** The limitation every direct trace carries: it sees decoded messages, not the raw wire. */
export const CAPTURE_INCOMPLETE = 'capture_incomplete';
/** Added when raw evidence was cut or dropped because the execution's 64 MiB budget ran out. */
export const RAW_EVIDENCE_BUDGET_EXCEEDED = 'raw_evidence_budget_exceeded';

/** What a caller gives `TraceRecorder.record`. */
export interface RecordFields {
  phase?: LifecyclePhase;
  origin?: EventOrigin;
  direction?: EventDirection;
  server?: string;
  connectionId?: string;
  sessionId?: string;
  turnId?: string;
  jsonrpcId?: string | number;
  payload: object;
  /**
   * True when `payload` is already the output of `recorder.sanitize` (plain, redacted JSON): it is
   * then stored without a second walk. Saves time on the hot path of observed transports.
   */
  preRedacted?: boolean;
  /** The frame or stderr this event was decoded from; redacted, bounded and stored by sha256. */
  raw?: string | Buffer;
  /** Media type of `raw` (default `application/json`). */
  rawMediaType?: string;
  /**
   * What `raw` is (default `mcp`). For `process_stderr` a `StderrCapture` goes to `payload.stderr`;
   * otherwise the preview fields of a `raw.frame` payload are merged into the payload.
   */
  rawSource?: RawEvidenceSource;
  /** Bytes the source produced before the caller kept only part of them (e.g. a stderr tail). */
  rawOriginalSizeBytes?: number;
  /** True when the caller already redacted something in `raw` (e.g. structurally, by JSON key). */
  rawRedacted?: boolean;
}

/** Options of a recorder. */
export interface TraceRecorderOptions {
  executionId: string;
  redactor: Redactor;
  /** Monotonic milliseconds (default `performance.now`). */
  clock?: () => number;
  /** Trace id (default: the `traceId` of the `execution.created` payload, else a new id). */
  traceId?: string;
  /** Raw evidence limits (default SPEC §5: 64 KiB preview, 1 MiB a frame, 64 MiB an execution). */
  rawLimits?: Partial<RawEvidenceLimits>;
  /** Limitations every trace of this recorder carries (default `['capture_incomplete']`). */
  limitations?: string[];
}

/** Extra facts for `finish`. */
export interface FinishExtras {
  /** The one-shot result of a direct spec, stored in the `execution.finished` payload. */
  directResult?: JsonValue;
  /** Limitations to add, e.g. `cleanup_failed`. */
  limitations?: string[];
}

/** An event accepted by `recordLater`: its inputs and the time it was accepted. */
interface PendingRecord {
  kind: EventKind;
  fields: RecordFields;
  offsetMs: number;
  fallback: DeferredFallback | undefined;
}

/** What `recordLater` records instead when building the event throws. */
export interface DeferredFallback {
  kind: EventKind;
  fields: RecordFields;
}

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
  private readonly clock: () => number;
  private readonly startMono: number;
  private readonly startWall: number;
  private readonly limits: RawEvidenceLimits;
  private readonly baseLimitations: string[];
  private readonly extraLimitations = new Set<string>();
  private readonly eventList: TraceEvent[] = [];
  /** Stored evidence; text is turned into a Buffer only when `evidence` is read. */
  private readonly blobs: Array<{ reference: EvidenceRef; bytes: Buffer | string }> = [];
  private readonly materialized: RawEvidenceBlob[] = [];
  private readonly blobDigests = new Set<string>();
  private readonly listeners = new Set<(e: TraceEvent) => void>();
  private rawBytesStored = 0;
  private lastOffset = 0;
  private lastIsoMs = Number.NaN;
  private lastIso = '';
  private final: TraceResult | null = null;
  /** Events accepted by `recordLater` and not built yet, in order (see `recordLater`). */
  private pending: PendingRecord[] = [];
  private flushScheduled = false;

  constructor(options: TraceRecorderOptions) {
    this.executionId = options.executionId;
    this.redactor = options.redactor;
    this.clock = options.clock ?? (() => performance.now());
    this.startMono = this.clock();
    this.startWall = Date.now();
    this.traceIdValue = options.traceId ?? newId('trace');
    this.limits = { ...DEFAULT_RAW_LIMITS, ...options.rawLimits };
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
    for (let i = this.materialized.length; i < this.blobs.length; i += 1) {
      const blob = this.blobs[i] as { reference: EvidenceRef; bytes: Buffer | string };
      const bytes = typeof blob.bytes === 'string' ? Buffer.from(blob.bytes, 'utf8') : blob.bytes;
      this.materialized.push(Object.freeze({ reference: blob.reference, bytes }));
    }
    return this.materialized;
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
    return Math.max(this.lastOffset, Math.round((this.clock() - this.startMono) * 1000) / 1000);
  }

  /** ISO time at `offsetMs`, reusing the last string within the same millisecond (a hot path). */
  private isoAt(offsetMs: number): string {
    const wall = Math.floor(this.startWall + offsetMs);
    if (wall !== this.lastIsoMs) {
      this.lastIsoMs = wall;
      this.lastIso = new Date(wall).toISOString();
    }
    return this.lastIso;
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
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Records one event. The payload is turned into plain JSON and redacted (see `sanitizeJson`); `raw` is redacted,
   * bounded and stored, its reference set on `event.rawEvidence` and its preview merged into the
   * payload (`source, mediaType, preview, previewTruncated, sizeBytes, truncated, redacted`, as a
   * `raw.frame` event carries them), or put in `payload.stderr` for `rawSource: 'process_stderr'`.
   */
  record(kind: EventKind, fields: RecordFields): TraceEvent {
    if (this.final !== null) {
      throw new M3Error('trace_finalized', `cannot record ${kind}: the trace of ${this.executionId} is finished`);
    }
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
  recordLater(kind: EventKind, fields: RecordFields, fallback?: DeferredFallback): void {
    if (this.final !== null) {
      throw new M3Error('trace_finalized', `cannot record ${kind}: the trace of ${this.executionId} is finished`);
    }
    if (this.listeners.size > 0) {
      this.flushPending();
      this.buildOrFallback({ kind, fields, offsetMs: this.now(), fallback });
      return;
    }
    const offsetMs = this.now();
    this.lastOffset = offsetMs;
    this.pending.push({ kind, fields, offsetMs, fallback });
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

  /** Builds every pending event, in order. */
  private flushPending(): void {
    if (this.pending.length === 0) return;
    const pending = this.pending;
    this.pending = [];
    for (const entry of pending) this.buildOrFallback(entry);
  }

  private buildOrFallback(entry: PendingRecord): void {
    try {
      this.build(entry.kind, entry.fields, entry.offsetMs);
    } catch {
      if (entry.fallback === undefined) return;
      try {
        this.build(entry.fallback.kind, entry.fallback.fields, entry.offsetMs);
      } catch {
        // Recording is best effort for deferred events, as for the transports that defer them.
      }
    }
  }

  /** Builds, stores and announces one event; `offsetMs` when it was accepted earlier. */
  private build(kind: EventKind, fields: RecordFields, acceptedAtMs: number | undefined): TraceEvent {
    const plain = fields.preRedacted === true ? (fields.payload as JsonObject) : this.sanitize(fields.payload);
    let payload: JsonObject = plain !== null && typeof plain === 'object' && !Array.isArray(plain) ? plain : {};
    if (kind === 'execution.created' && this.eventList.length === 0) {
      if (typeof payload.traceId === 'string' && payload.traceId !== '') this.traceIdValue = payload.traceId;
      else payload = { ...payload, traceId: this.traceIdValue };
    }
    let rawEvidence: EvidenceRef | undefined;
    if (fields.raw !== undefined) {
      // One copy that the raw fields are then written into (same keys and order as merging them).
      // Object.assign, not a spread: V8 makes a spread of an object with many fields very slow.
      payload = Object.assign({}, payload);
      rawEvidence = this.attachRaw(fields, payload);
    } else if (fields.preRedacted === true) {
      payload = Object.assign({}, payload);
    }
    const sequence = this.eventList.length;
    const offsetMs = acceptedAtMs ?? this.now();
    this.lastOffset = Math.max(this.lastOffset, offsetMs);
    // Built by assignment, not conditional spreads: this runs for every message of a connection.
    const event: { -readonly [K in keyof TraceEvent]: TraceEvent[K] } = {
      schemaVersion: 1,
      eventId: `evt-${this.executionId}-${sequence}`,
      sequence,
      kind,
      executionId: this.executionId,
      timestamp: this.isoAt(offsetMs),
      offsetMs,
      phase: fields.phase ?? 'unknown',
      origin: fields.origin ?? 'normalized',
      payload: Object.freeze(payload),
    };
    if (fields.direction !== undefined) event.direction = fields.direction;
    if (fields.server !== undefined) event.server = fields.server;
    if (fields.connectionId !== undefined) event.connectionId = fields.connectionId;
    if (fields.sessionId !== undefined) event.sessionId = fields.sessionId;
    if (fields.turnId !== undefined) event.turnId = fields.turnId;
    if (fields.jsonrpcId !== undefined) event.jsonrpcId = fields.jsonrpcId;
    if (rawEvidence !== undefined) event.rawEvidence = rawEvidence;
    Object.freeze(event);
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

  /**
   * Keeps `fields.raw` as evidence and writes its preview fields into `payload` (a fresh copy the
   * caller owns); returns the evidence reference, if any was kept.
   */
  private attachRaw(fields: RecordFields, payload: JsonObject): EvidenceRef | undefined {
    const raw = fields.raw as string | Buffer;
    const mediaType = fields.rawMediaType ?? 'application/json';
    const source: RawEvidenceSource = fields.rawSource ?? 'mcp';
    const inputBytes = typeof raw === 'string' ? Buffer.byteLength(raw, 'utf8') : raw.length;
    const budget = this.limits.executionBytes - this.rawBytesStored;
    const bounded = boundRaw(
      raw,
      mediaType,
      this.redactor,
      this.limits,
      budget,
      fields.rawOriginalSizeBytes,
      fields.rawRedacted === true,
      inputBytes,
    );
    if (bounded === null || bounded.cutByBudget) this.extraLimitations.add(RAW_EVIDENCE_BUDGET_EXCEEDED);
    if (source === 'process_stderr') {
      const stderr: StderrCapture =
        bounded === null
          ? { preview: '', sizeBytes: fields.rawOriginalSizeBytes ?? inputBytes, truncated: true, redacted: false }
          : {
              preview: bounded.preview,
              sizeBytes: bounded.reference.originalSizeBytes,
              truncated: bounded.reference.truncated || bounded.previewTruncated,
              redacted: bounded.reference.redacted,
              evidenceRef: bounded.reference,
            };
      payload.stderr = stderr as unknown as JsonObject;
    } else if (bounded === null) {
      // The fields of `RawFrameFields`, in its order, written in place (no intermediate object).
      payload.source = source;
      payload.mediaType = mediaType;
      payload.preview = '';
      payload.previewTruncated = true;
      payload.sizeBytes = fields.rawOriginalSizeBytes ?? inputBytes;
      payload.truncated = true;
      payload.redacted = false;
      payload.dropped = true;
    } else {
      payload.source = source;
      payload.mediaType = mediaType;
      payload.preview = bounded.preview;
      payload.previewTruncated = bounded.previewTruncated;
      payload.sizeBytes = bounded.reference.originalSizeBytes;
      payload.truncated = bounded.reference.truncated;
      payload.redacted = bounded.reference.redacted;
    }
    if (bounded === null) return undefined;
    if (!this.blobDigests.has(bounded.reference.sha256)) {
      this.blobDigests.add(bounded.reference.sha256);
      this.blobs.push({ reference: bounded.reference, bytes: bounded.bytes });
      this.rawBytesStored += bounded.reference.sizeBytes;
    }
    return bounded.reference;
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
