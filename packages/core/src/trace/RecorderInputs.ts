import type { JsonValue } from '../json';
import type { Redactor } from '../redaction/Redactor';
import type { EventDirection, EventKind, EventOrigin, LifecyclePhase } from './Event';
import type { RawEvidenceLimits, RawEvidenceSource } from './rawCapture';

// What callers give a `TraceRecorder`: its options, the fields of one event, and the extras of `finish`.

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

/** What `recordLater` records instead when building the event throws. */
export interface DeferredFallback {
  kind: EventKind;
  fields: RecordFields;
}

/** The kind and fields of one event, as a deferred `recordLater` producer returns them. */
export interface DeferredEvent {
  kind: EventKind;
  fields: RecordFields;
}

/**
 * An event accepted by `recordLater`: its inputs (or the producer that makes them when the event is
 * built) and the time it was accepted.
 */
export interface PendingRecord {
  event: DeferredEvent | (() => DeferredEvent);
  offsetMs: number;
  fallback: DeferredFallback | undefined;
}

/** Options of a recorder. */
export interface TraceRecorderOptions {
  executionId: string;
  redactor: Redactor;
  /** Monotonic milliseconds (default `performance.now`). */
  clock?: () => number;
  /** Trace id (default: the `traceId` of the `execution.created` payload, else a new id). */
  traceId?: string;
  /** Raw evidence limits (default contract §5: 64 KiB preview, 1 MiB a frame, 64 MiB an execution). */
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
