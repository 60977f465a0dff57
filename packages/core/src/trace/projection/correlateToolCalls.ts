import type { JsonValue } from '../../json';
import type { TraceEvent } from '../Event';
import type { Observation } from '../Observation';
import type { ReportedToolCall } from '../TraceEntry';
import type { RpcExchange } from './pairExchanges';
import { canonicalJson, isJsonObject } from './ProjectionContext';

/**
 * `tools/call` `params._meta` keys under which agent CLIs send their own id of the call: Claude Code's
 * `claudecode/toolUseId` (the model's `tool_use` id), Codex's `callId` (the model's `call_id`) and
 * sf-m3's Pi extension's `pi/toolCallId` (Pi's toolCallId). A driver records the same id as the
 * reported call's `providerCallId`.
 */
export const WIRE_CALL_ID_META_KEYS: readonly string[] = ['claudecode/toolUseId', 'callId', 'pi/toolCallId'];

/** The parts of a decoded wire `tools/call` correlation reads. */
export interface CorrelatedWire {
  readonly exchange: RpcExchange;
  readonly server: string;
  readonly tool: Observation<string>;
  readonly arguments: Observation<JsonValue>;
}

/** The parts of a reported call correlation reads. */
export interface CorrelatedReport {
  readonly request: TraceEvent;
  readonly value: ReportedToolCall;
}

/** The agent's ids of a wire call: the string values of the known `_meta` keys of its request's params. */
export function wireCallIds(request: TraceEvent): string[] {
  const params = request.payload.params;
  const meta = isJsonObject(params) ? params._meta : undefined;
  if (!isJsonObject(meta)) return [];
  return WIRE_CALL_ID_META_KEYS.flatMap((key) => {
    const id = meta[key];
    return typeof id === 'string' && id.length > 0 ? [id] : [];
  });
}

const sameScope = (a: string | undefined, b: string | undefined): boolean =>
  a === undefined || b === undefined || a === b;

/**
 * Pairs reported calls with wire calls, each wire call used once, in three passes:
 * 1. by id: a reported `providerCallId` that the wire call carried in `_meta` (same session; the same
 *    turn preferred, another turn or another tool accepted — the entry then lists the conflict);
 * 2. by order: the first free wire call of the same turn and tool, preferring the same server and a
 *    wire call whose `_meta` id does not name another call;
 * 3. by arguments: the first free wire call of the same session and tool with canonically equal arguments.
 * Pure: reads the calls, returns the pairs and the reported calls left alone.
 */
export function correlateToolCalls<W extends CorrelatedWire, R extends CorrelatedReport>(
  reported: readonly R[],
  wires: readonly W[],
): { pairs: Map<W, R>; reportedOnly: R[] } {
  const ids = new Map(wires.map((w) => [w, wireCallIds(w.exchange.request)] as const));
  const pairs = new Map<W, R>();
  const free = (w: W) => !pairs.has(w);
  const pending = new Set(reported);
  const take = (call: R, wire: W | undefined) => {
    if (wire === undefined) return;
    pairs.set(wire, call);
    pending.delete(call);
  };
  const turnOf = (e: TraceEvent) => e.turnId;

  for (const call of reported) {
    const id = call.value.providerCallId;
    if (id === null) continue;
    const byId = wires.filter(
      (w) => free(w) && ids.get(w)!.includes(id) && sameScope(call.request.sessionId, w.exchange.request.sessionId),
    );
    take(call, byId.find((w) => turnOf(w.exchange.request) === turnOf(call.request)) ?? byId[0]);
  }

  for (const call of reported) {
    if (!pending.has(call)) continue;
    const candidates = wires.filter(
      (w) =>
        free(w) &&
        w.tool.value === call.value.tool &&
        (call.request.turnId === undefined || turnOf(w.exchange.request) === call.request.turnId),
    );
    const id = call.value.providerCallId;
    const uncontradicted = (w: W) => id === null || ids.get(w)!.length === 0 || ids.get(w)!.includes(id);
    const sameServer = (w: W) => call.value.server === null || w.server === call.value.server;
    take(
      call,
      candidates.find((w) => sameServer(w) && uncontradicted(w)) ??
        candidates.find(uncontradicted) ??
        candidates.find(sameServer) ??
        candidates[0],
    );
  }

  for (const call of reported) {
    if (!pending.has(call) || call.value.arguments.state !== 'observed') continue;
    const args = canonicalJson(call.value.arguments.value ?? null);
    take(
      call,
      wires.find(
        (w) =>
          free(w) &&
          w.tool.value === call.value.tool &&
          w.arguments.state === 'observed' &&
          canonicalJson(w.arguments.value ?? null) === args &&
          sameScope(call.request.sessionId, w.exchange.request.sessionId),
      ),
    );
  }

  return { pairs, reportedOnly: reported.filter((call) => pending.has(call)) };
}
