import type { JsonValue } from '../../json';
import type { Redactor } from '../../redaction/Redactor';
import type { CassetteResponse } from '../CassetteFormat';
import { CASSETTE_RESPONSE_HEADERS, pickHeaders, type HeaderSource } from '../cassetteHeaders';
import type { VolatileStrings } from '../VolatileStrings';
import { isEventStream, joinSseEvents, splitSseEvents } from './sseEvents';

/**
 * A live response as the cassette stores it: status, allowlisted headers, and the body as JSON, text
 * or null, or a stream as its events; volatile strings hidden and everything redacted.
 */
export function toCassetteResponse(
  status: number,
  headers: HeaderSource,
  body: Buffer,
  volatile: VolatileStrings,
  redactor: Redactor,
): CassetteResponse {
  const kept = pickHeaders(headers, CASSETTE_RESPONSE_HEADERS);
  const text = body.toString('utf8');
  if (isEventStream(kept['content-type'])) {
    return { status, headers: kept, events: splitSseEvents(text).map((e) => redactor.redactText(volatile.hide(e))) };
  }
  if (text.length === 0) return { status, headers: kept, body: null };
  let parsed: JsonValue | undefined;
  try {
    parsed = JSON.parse(text) as JsonValue;
  } catch {
    parsed = undefined;
  }
  return {
    status,
    headers: kept,
    // a JSON string is kept as its text, so it replays as the same bytes
    body:
      parsed === undefined || typeof parsed === 'string'
        ? redactor.redactText(volatile.hide(text))
        : redactor.redactJson(volatile.hideJson(parsed)),
  };
}

/** What a replayed response sends: its status, headers and body chunks (an SSE stream one chunk per event). */
export interface ReplayedResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly chunks: readonly string[];
}

/** The bytes a recorded response replays as, with this run's volatile strings put back. */
export function replayCassetteResponse(response: CassetteResponse, volatile: VolatileStrings): ReplayedResponse {
  const headers = { ...response.headers };
  if (response.events !== undefined) {
    if (!isEventStream(headers['content-type'])) headers['content-type'] = 'text/event-stream';
    return { status: response.status, headers, chunks: joinSseEvents(response.events.map((e) => volatile.restore(e))) };
  }
  const body = response.body ?? null;
  if (body === null) return { status: response.status, headers, chunks: [] };
  if (typeof body === 'string') return { status: response.status, headers, chunks: [volatile.restore(body)] };
  headers['content-type'] ??= 'application/json';
  return { status: response.status, headers, chunks: [JSON.stringify(volatile.restoreJson(body))] };
}
