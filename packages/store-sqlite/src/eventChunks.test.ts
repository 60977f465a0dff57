import { inflateRawSync } from 'node:zlib';
import type { TraceEvent } from '@sf-m3/core';
import { finishedTrace } from '@sf-m3/test-utils/store';
import {
  encodeEventChunks,
  EVENTS_PER_CHUNK,
  expandEvents,
  framesReferenced,
  inflateEventChunk,
  type FrameText,
} from './eventChunks';

const executionId = 'exec-0123456789abcdef0123456789abcdef';

function withFrames(frames: Record<string, string>): FrameText {
  return (sha256) => frames[sha256];
}

function decode(chunks: ReturnType<typeof encodeEventChunks>, frameText: FrameText): TraceEvent[] {
  return expandEvents(
    chunks.flatMap((chunk) => inflateEventChunk(chunk)),
    executionId,
    frameText,
  );
}

describe('event chunks', () => {
  const { trace, finished } = finishedTrace(executionId);
  const frames = Object.fromEntries(finished.evidence.map((e) => [e.reference.sha256, e.bytes.toString('utf8')]));

  it('gives back events deep-equal to the ones written, and stores the frame text only once', () => {
    const events = trace.toJSON().events;
    const withPreview = events.find((e) => typeof (e.payload as { preview?: unknown }).preview === 'string');
    expect(withPreview?.rawEvidence).toBeDefined();
    const chunks = encodeEventChunks(executionId, events, withFrames(frames));
    expect(chunks).toHaveLength(1);
    const json = inflateRawSync(chunks[0]!.body).toString('utf8');
    expect(json).not.toContain(executionId); // derived from the row, not repeated per event
    expect(json).not.toContain(JSON.stringify((withPreview!.payload as { preview: string }).preview));
    expect(framesReferenced(inflateEventChunk(chunks[0]!))).toEqual([withPreview!.rawEvidence!.sha256]);
    expect(decode(chunks, withFrames(frames))).toEqual(events);
  });

  it('keeps a preview verbatim when its frame is not stored with it or does not match', () => {
    const events = trace.toJSON().events;
    for (const frameText of [
      withFrames({}),
      withFrames(Object.fromEntries(Object.keys(frames).map((k) => [k, 'x']))),
    ]) {
      const chunks = encodeEventChunks(executionId, events, frameText);
      expect(framesReferenced(inflateEventChunk(chunks[0]!))).toEqual([]);
      expect(decode(chunks, withFrames({}))).toEqual(events);
    }
  });

  it('keeps ids that do not follow the derivable pattern', () => {
    const events = trace
      .toJSON()
      .events.map((e, i) => (i === 0 ? { ...e, eventId: 'evt-custom', executionId: 'exec-other' } : e));
    expect(decode(encodeEventChunks(executionId, events, withFrames(frames)), withFrames(frames))).toEqual(events);
  });

  it('splits long traces into chunks of EVENTS_PER_CHUNK and refuses a missing frame or unknown format', () => {
    const base = trace.toJSON().events[0]!;
    const events = Array.from({ length: EVENTS_PER_CHUNK * 2 + 5 }, (_, sequence) => ({
      ...base,
      sequence,
      eventId: `evt-${executionId}-${sequence}`,
    }));
    const chunks = encodeEventChunks(executionId, events, withFrames({}));
    expect(chunks.map((c) => [c.firstSequence, c.eventCount])).toEqual([
      [0, EVENTS_PER_CHUNK],
      [EVENTS_PER_CHUNK, EVENTS_PER_CHUNK],
      [EVENTS_PER_CHUNK * 2, 5],
    ]);
    expect(decode(chunks, withFrames({}))).toEqual(events);

    const framed = encodeEventChunks(executionId, trace.toJSON().events, withFrames(frames));
    expect(() => decode(framed, withFrames({}))).toThrow(/takes its preview from raw evidence .* not stored/);
    expect(() => inflateEventChunk({ ...framed[0]!, format: 99 })).toThrow(/format 99/);
    expect(() => inflateEventChunk({ ...framed[0]!, eventCount: 1 })).toThrow(/does not hold the 1 events/);
  });
});
