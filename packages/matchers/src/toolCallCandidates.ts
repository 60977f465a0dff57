import type { ToolCallEntry } from '@sf-m3/core';
import type { ViewLike } from '@sf-m3/core/internal';
import { isPlainObject, UNAVAILABLE } from './matchValue';
import type { Unavailable } from './matchValue';

/** Which evidence of a tool call an assertion reads (contract §7): the MCP wire, the agent's report, or either. */
export type ToolCallEvidence = 'wire' | 'reported' | 'any';

/** The evidence sources, for validation. */
export const TOOL_CALL_EVIDENCE: readonly ToolCallEvidence[] = ['wire', 'reported', 'any'];

/** One tool call as seen through one evidence source; unobserved fields are {@link UNAVAILABLE}. */
export interface ToolCallCandidate {
  readonly tool: string | Unavailable;
  readonly server: string | Unavailable;
  readonly arguments: unknown;
  readonly result: unknown;
  readonly status: string | Unavailable;
  readonly latencyMs: number | Unavailable;
  /** `input_required` rounds before the answer (wire evidence; 0 when none). */
  readonly inputRounds: number | Unavailable;
  readonly turnId: string | null;
  readonly evidence: ToolCallEvidence;
  readonly entry: ToolCallEntry;
}

/** The call a `predicate` option receives: unobserved fields are `undefined`. */
export interface ToolCallInfo {
  readonly tool: string | undefined;
  readonly server: string | undefined;
  readonly arguments: unknown;
  readonly result: unknown;
  readonly status: string | undefined;
  readonly latencyMs: number | undefined;
  readonly inputRounds: number | undefined;
  readonly turnId: string | null;
  readonly evidence: ToolCallEvidence;
  /** The full trace entry, with wire and reported evidence and conflicts. */
  readonly entry: ToolCallEntry;
}

type Bag = Record<string, unknown>;

function observedValue(observation: unknown): unknown {
  if (typeof observation !== 'object' || observation === null) return UNAVAILABLE;
  const o = observation as { state?: unknown; value?: unknown };
  return o.state === 'observed' ? o.value : UNAVAILABLE;
}

const stringOr = (value: unknown): string | Unavailable => (typeof value === 'string' ? value : UNAVAILABLE);
const numberOr = (value: unknown): number | Unavailable =>
  typeof value === 'number' && Number.isFinite(value) ? value : UNAVAILABLE;

/**
 * A tool result in the shape assertions compare against (MCP spelling): `content`, then
 * `structuredContent` only when observed and `isError: true` only when true, so `isError: false`
 * and an absent `isError` mean the same thing.
 */
export function projectToolResult(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const hasResultKeys = ['content', 'structuredContent', 'structured_content', 'isError', 'is_error'].some(
    (k) => k in value,
  );
  if (!hasResultKeys) return value;
  const out: Bag = { content: Array.isArray(value.content) ? value.content : [] };
  const structured = value.structuredContent ?? value.structured_content;
  if (isPlainObject(structured) && 'state' in structured && ('value' in structured || 'reason' in structured)) {
    const observed = observedValue(structured);
    if (observed !== UNAVAILABLE) out.structuredContent = observed;
  } else if (structured !== undefined) {
    out.structuredContent = structured;
  }
  if (value.isError === true || value.is_error === true) out.isError = true;
  if ('error' in value && value.error !== undefined) out.error = value.error;
  return out;
}

/**
 * An expected `result` in the same shape: accepts a `ToolCallResult`, MCP or snake spelling, drops
 * `isError: false`, and gives a content block written as `{ text }` the type `text`.
 */
export function normaliseExpectedResult(expected: unknown): unknown {
  if (!isPlainObject(expected)) return expected;
  const out: Bag = {};
  for (const [key, value] of Object.entries(expected)) {
    if (value === undefined || key === 'executionId' || key === 'tool' || key === 'server') continue;
    if (key === 'structured_content') out.structuredContent = value;
    else if (key === 'is_error' || key === 'isError') {
      if (value !== false) out.isError = value;
    } else out[key] = value;
  }
  if (Array.isArray(out.content)) {
    out.content = out.content.map((block: unknown) =>
      isPlainObject(block) && !('type' in block) && typeof block.text === 'string' ? { type: 'text', ...block } : block,
    );
  }
  return out;
}

function fromWire(entry: ToolCallEntry): ToolCallCandidate | null {
  const wire = observedValue(entry.wire);
  if (!isPlainObject(wire)) return null;
  const result = observedValue(wire.result);
  return {
    tool: stringOr(wire.tool),
    server: stringOr(wire.server),
    arguments: 'arguments' in wire ? wire.arguments : UNAVAILABLE,
    result: result === UNAVAILABLE ? UNAVAILABLE : projectToolResult(result),
    status: stringOr(entry.toolStatus),
    latencyMs: numberOr(wire.latencyMs),
    inputRounds: entry.inputRounds ?? 0,
    turnId: entry.turnId ?? null,
    evidence: 'wire',
    entry,
  };
}

function fromReported(entry: ToolCallEntry): ToolCallCandidate | null {
  const reported = observedValue(entry.reported);
  if (!isPlainObject(reported)) return null;
  const result = observedValue(reported.result);
  return {
    tool: stringOr(reported.tool),
    server: stringOr(reported.server),
    arguments: observedValue(reported.arguments),
    result: result === UNAVAILABLE ? UNAVAILABLE : projectToolResult(result),
    status: stringOr(observedValue(reported.status)),
    latencyMs: UNAVAILABLE,
    inputRounds: UNAVAILABLE,
    turnId: entry.turnId ?? null,
    evidence: 'reported',
    entry,
  };
}

function fromResolved(entry: ToolCallEntry): ToolCallCandidate {
  const result = observedValue(entry.result);
  return {
    tool: stringOr(observedValue(entry.tool)),
    server: stringOr(entry.server),
    arguments: observedValue(entry.arguments),
    result: result === UNAVAILABLE ? UNAVAILABLE : projectToolResult(result),
    status: stringOr(entry.toolStatus),
    latencyMs: numberOr(entry.latencyMs),
    inputRounds: entry.wire.state === 'observed' ? (entry.inputRounds ?? 0) : UNAVAILABLE,
    turnId: entry.turnId ?? null,
    evidence: 'any',
    entry,
  };
}

/** Every tool call of the views, projected through one evidence source, in timeline order. */
export function toolCallCandidates(views: readonly ViewLike[], evidence: ToolCallEvidence): ToolCallCandidate[] {
  const out: ToolCallCandidate[] = [];
  for (const view of views) {
    for (const entry of view.timeline) {
      if (entry.kind !== 'tool_call') continue;
      const candidate =
        evidence === 'wire' ? fromWire(entry) : evidence === 'reported' ? fromReported(entry) : fromResolved(entry);
      if (candidate) out.push(candidate);
    }
  }
  return out;
}

/**
 * Servers whose initialization listed `tool` (when the trace records discovered tool lists), so a
 * tool offered by two servers is ambiguous even if only one of them was called.
 */
export function serversDiscoveringTool(views: readonly ViewLike[], tool: string): string[] {
  const servers: string[] = [];
  for (const view of views) {
    for (const entry of view.timeline) {
      if (entry.kind !== 'initialization' || typeof entry.server !== 'string') continue;
      const tools = observedValue(entry.tools);
      if (!Array.isArray(tools)) continue;
      const names = tools.map((t: unknown) => (isPlainObject(t) ? t.name : t));
      if (names.includes(tool)) servers.push(entry.server);
    }
  }
  return servers;
}

/** The predicate-facing form of a candidate. */
export function toolCallInfo(candidate: ToolCallCandidate): ToolCallInfo {
  const plain = <T>(value: T | Unavailable): T | undefined => (value === UNAVAILABLE ? undefined : value);
  return {
    tool: plain(candidate.tool),
    server: plain(candidate.server),
    arguments: plain(candidate.arguments),
    result: plain(candidate.result),
    status: plain(candidate.status),
    latencyMs: plain(candidate.latencyMs),
    inputRounds: plain(candidate.inputRounds),
    turnId: candidate.turnId,
    evidence: candidate.evidence,
    entry: candidate.entry,
  };
}
