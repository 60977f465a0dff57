import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { TraceEvent } from '@sf-m3/core';

/**
 * How a trace's events are stored: `EVENTS_PER_CHUNK` events per row of `event_chunks`, as one
 * deflated JSON array. One event per row (schema version 1) cost ~28 KB per direct execution:
 * every row repeated the execution id, the event id and the raw frame's text, and rows over
 * ~1 KB spilled into mostly empty overflow pages of the WITHOUT ROWID table. Here the fields a
 * reader can derive are replaced by a marker, and nothing else changes: decoding gives back
 * events deep-equal to the ones written.
 *
 * - `executionId` equal to the trace's → `0`; `eventId` equal to `evt-<executionId>-<sequence>` → `0`.
 * - `payload.preview` that is the start of the raw frame kept as evidence (the frame's own bytes
 *   are stored once, by sha256, in `blobs`) → its length, a number; the reader takes that many
 *   UTF-16 units of the frame's text back.
 */

/** Events per stored row: long traces are split so no row grows without bound. */
export const EVENTS_PER_CHUNK = 128;

/** `event_chunks.format` of a deflate-raw UTF-8 JSON array of compact events. */
export const CHUNK_FORMAT_DEFLATE_JSON = 1;

/** One row of `event_chunks`. */
export interface EventChunk {
  readonly firstSequence: number;
  readonly eventCount: number;
  readonly format: number;
  readonly body: Buffer;
}

/** The text of a raw frame kept with the trace, by sha256 (undefined when not kept). */
export type FrameText = (sha256: string) => string | undefined;

/** One event as stored: derivable fields replaced by markers (see above). */
export type StoredEvent = Record<string, unknown>;

function compact(event: TraceEvent, executionId: string, frameText: FrameText): StoredEvent {
  const out: StoredEvent = { ...event };
  if (event.executionId === executionId) out.executionId = 0;
  if (event.eventId === `evt-${executionId}-${event.sequence}`) out.eventId = 0;
  const payload = event.payload as StoredEvent | null | undefined;
  const sha256 = event.rawEvidence?.sha256;
  if (sha256 !== undefined && payload !== null && typeof payload === 'object' && typeof payload.preview === 'string') {
    if (payload.preview.length > 0 && frameText(sha256)?.startsWith(payload.preview) === true) {
      out.payload = { ...payload, preview: payload.preview.length };
    }
  }
  return out;
}

/** The chunks of `events`, in order; `frameText` gives the text of the raw evidence stored with them. */
export function encodeEventChunks(
  executionId: string,
  events: readonly TraceEvent[],
  frameText: FrameText,
): EventChunk[] {
  const chunks: EventChunk[] = [];
  for (let start = 0; start < events.length; start += EVENTS_PER_CHUNK) {
    const slice = events.slice(start, start + EVENTS_PER_CHUNK);
    const json = JSON.stringify(slice.map((event) => compact(event, executionId, frameText)));
    chunks.push({
      firstSequence: slice[0]!.sequence,
      eventCount: slice.length,
      format: CHUNK_FORMAT_DEFLATE_JSON,
      body: deflateRawSync(Buffer.from(json, 'utf8')),
    });
  }
  return chunks;
}

/** The stored events of one chunk; throws when the chunk is in an unknown format or malformed. */
export function inflateEventChunk(chunk: EventChunk): StoredEvent[] {
  if (chunk.format !== CHUNK_FORMAT_DEFLATE_JSON) {
    throw new Error(`events stored in format ${chunk.format}, which this @sf-m3/store-sqlite does not read`);
  }
  const stored = JSON.parse(inflateRawSync(chunk.body).toString('utf8')) as unknown;
  if (!Array.isArray(stored) || stored.length !== chunk.eventCount) {
    throw new Error(`an event chunk does not hold the ${chunk.eventCount} events it should`);
  }
  return stored as StoredEvent[];
}

function previewLength(event: StoredEvent): number | null {
  const payload = event.payload as StoredEvent | null | undefined;
  return payload !== null && typeof payload === 'object' && typeof payload.preview === 'number'
    ? payload.preview
    : null;
}

function frameOf(event: StoredEvent): string | undefined {
  return (event.rawEvidence as { sha256?: string } | undefined)?.sha256;
}

/** The sha256 of every frame whose text the stored events take their preview from. */
export function framesReferenced(events: readonly StoredEvent[]): string[] {
  const shas = new Set<string>();
  for (const event of events) {
    const sha256 = frameOf(event);
    if (previewLength(event) !== null && sha256 !== undefined) shas.add(sha256);
  }
  return [...shas];
}

/** The events as they were written; throws when a frame a preview points at is missing. */
export function expandEvents(events: readonly StoredEvent[], executionId: string, frameText: FrameText): TraceEvent[] {
  return events.map((stored) => {
    const event: StoredEvent = { ...stored };
    if (event.executionId === 0) event.executionId = executionId;
    if (event.eventId === 0) event.eventId = `evt-${executionId}-${String(event.sequence)}`;
    const length = previewLength(event);
    if (length !== null) {
      const sha256 = frameOf(event);
      const frame = sha256 === undefined ? undefined : frameText(sha256);
      if (frame === undefined) {
        throw new Error(
          `event ${String(event.sequence)} takes its preview from raw evidence ${String(sha256)}, which is not stored`,
        );
      }
      event.payload = { ...(event.payload as StoredEvent), preview: frame.slice(0, length) };
    }
    return event as unknown as TraceEvent;
  });
}
