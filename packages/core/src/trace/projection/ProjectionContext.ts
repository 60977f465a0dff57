import { createHash } from 'node:crypto';
import type { JsonObject, JsonValue } from '../../json';
import type { TraceEvent } from '../Event';
import type { EntryBase, EntryKind, EntryStatus } from '../TraceEntry';

/** Facts every projector needs about the trace being projected. */
export interface ProjectionContext {
  readonly executionId: string;
  readonly runtimeKind: string;
  /** The one server bound to the execution when there is exactly one, used when an event names none. */
  readonly defaultServer: string | null;
  readonly events: readonly TraceEvent[];
  /** `tools/list` responses per connection (`connectionId`, else server), paired by request. */
  readonly toolLists: ReadonlyMap<string, readonly TraceEvent[]>;
}

/** The key an event's connection is known by: its `connectionId`, else its server binding. */
export function connectionKeyOf(event: TraceEvent): string {
  return event.connectionId ?? event.server ?? '';
}

/** Entry kinds that always concern a server, so an event naming none gets the only bound server. */
const SERVER_KINDS: ReadonlySet<EntryKind> = new Set([
  'tool_call',
  'protocol',
  'interaction',
  'transport',
  'process',
  'initialization',
  'raw_message',
]);

/**
 * `entry:` + sha256 of the source event ids joined by newlines: stable across projections. A
 * second entry derived from the same events (the raw frame an event carries) adds a `facet` so
 * the ids stay unique.
 */
export function entryIdOf(events: readonly TraceEvent[], facet?: string): string {
  const hash = createHash('sha256');
  hash.update(events.map((e) => e.eventId).join('\n'));
  if (facet !== undefined) hash.update(`\n#${facet}`);
  return `entry:${hash.digest('hex')}`;
}

/** A deterministic `call-<32 hex>` id for a tool call, derived from its first source event. */
export function callIdOf(event: TraceEvent): string {
  return `call-${createHash('sha256').update(`call\n${event.eventId}`).digest('hex').slice(0, 32)}`;
}

/**
 * The fields every entry shares, from its source events (in any order): ids, session/turn/server
 * of the first event that names them, sequence range and time span. Optional keys are omitted
 * rather than set to `undefined`, so a view survives a JSON round trip unchanged.
 */
export function entryBase<K extends EntryKind>(
  context: ProjectionContext,
  kind: K,
  sources: readonly (TraceEvent | undefined)[],
  status: EntryStatus,
  endEvent?: TraceEvent,
): EntryBase & { kind: K } {
  const events = sources.filter((e): e is TraceEvent => e !== undefined);
  const sorted = [...events].sort((a, b) => a.sequence - b.sequence);
  const first = sorted[0]!;
  const last = endEvent && endEvent.sequence > sorted.at(-1)!.sequence ? endEvent : sorted.at(-1)!;
  const base: { -readonly [P in keyof EntryBase]: EntryBase[P] } & { kind: K } = {
    entryId: entryIdOf(events),
    kind,
    executionId: context.executionId,
    sequenceStart: first.sequence,
    sequenceEnd: last.sequence,
    startMs: first.offsetMs,
    endMs: Math.max(first.offsetMs, last.offsetMs),
    status,
  };
  const sessionId = events.find((e) => e.sessionId !== undefined)?.sessionId;
  const turnId = events.find((e) => e.turnId !== undefined)?.turnId;
  const named = events.find((e) => e.server !== undefined)?.server;
  const server = named ?? (SERVER_KINDS.has(kind) ? (context.defaultServer ?? undefined) : undefined);
  const connectionId = events.find((e) => e.connectionId !== undefined)?.connectionId;
  if (sessionId !== undefined) base.sessionId = sessionId;
  if (turnId !== undefined) base.turnId = turnId;
  if (server !== undefined) base.server = server;
  if (connectionId !== undefined) base.connectionId = connectionId;
  return base;
}

/** True for a plain JSON object. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The payload field `key` when it is a string. */
export function stringField(payload: JsonObject, key: string): string | undefined {
  const value = payload[key];
  return typeof value === 'string' ? value : undefined;
}

/** The payload field `key` when it is a finite number. */
export function numberField(payload: JsonObject, key: string): number | undefined {
  const value = payload[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Canonical JSON (sorted keys) for order-insensitive comparison of JSON values. */
export function canonicalJson(value: JsonValue | undefined): string {
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Joins the text of `text` content blocks with no separator. */
export function joinedText(content: readonly JsonObject[]): string {
  return content
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .join('');
}
