import type { ToolCallStatus, TurnSelector } from '@sf-m3/core';
import { TOOL_CALL_EVIDENCE } from './toolCallCandidates';
import type { ToolCallEvidence, ToolCallInfo } from './toolCallCandidates';

/**
 * A turn to narrow to: a `TurnResult`, anything with a `turnId`, or the id itself. Re-exported from
 * `@sf-m3/core` (not redeclared) so `sf-m3`'s `export *` of both packages is not ambiguous.
 */
export type { TurnSelector };

/** Options of `toHaveToolCall` (contract §7, upstream `to_have_tool_call`). */
export interface ToolCallOptions {
  /** The server binding the call went to; required when the tool name is seen on several servers. */
  readonly server?: string;
  /** Expected arguments: exact by default (Jest asymmetric matchers and RegExp values allowed). */
  readonly arguments?: unknown;
  /** Extra argument keys are allowed. */
  readonly argumentsPartial?: boolean;
  /** Arrays in the arguments may be in any order. */
  readonly argumentsUnordered?: boolean;
  /** Strings in `arguments` are regular expressions that must match whole values. */
  readonly argumentsRegex?: boolean;
  /** Numbers in the arguments match within this absolute tolerance. */
  readonly argumentsTolerance?: number;
  /** Called with the observed arguments; the call matches when it returns true. */
  readonly argumentPredicate?: (args: unknown) => boolean;
  /** Expected result (`{ content, structuredContent?, isError? }`, MCP spelling). */
  readonly result?: unknown;
  /** Extra result keys are allowed. */
  readonly resultPartial?: boolean;
  /** `success | tool_error | protocol_error | transport_error | cancelled | timed_out | incomplete`. */
  readonly status?: ToolCallStatus;
  /** Exactly this many matching calls. */
  readonly count?: number;
  /** At least this many matching calls. */
  readonly minCount?: number;
  /** At most this many matching calls. */
  readonly maxCount?: number;
  /** Only calls made in this turn. */
  readonly turn?: TurnSelector;
  /** Which evidence to read: `wire` (default), `reported` or `any`. */
  readonly evidence?: ToolCallEvidence;
  /** Observed latency at least this many milliseconds (needs observed latency). */
  readonly minLatencyMs?: number;
  /** Observed latency at most this many milliseconds (needs observed latency). */
  readonly maxLatencyMs?: number;
  /**
   * Exactly this many 2026-07-28 `input_required` rounds before the answer (0: the server asked for
   * no input); needs wire evidence.
   */
  readonly inputRounds?: number;
  /** Called with each candidate call; the call matches when it returns true. */
  readonly predicate?: (call: ToolCallInfo) => boolean;
}

/** Options of `toHaveToolCalls`. */
export interface ToolCallsOptions {
  /** Compare as an ordered list (default) or as a multiset. */
  readonly ordered?: boolean;
  readonly server?: string;
  readonly turn?: TurnSelector;
  readonly evidence?: ToolCallEvidence;
}

const CALL_KEYS = new Set<string>([
  'server',
  'arguments',
  'argumentsPartial',
  'argumentsUnordered',
  'argumentsRegex',
  'argumentsTolerance',
  'argumentPredicate',
  'result',
  'resultPartial',
  'status',
  'count',
  'minCount',
  'maxCount',
  'turn',
  'evidence',
  'minLatencyMs',
  'maxLatencyMs',
  'inputRounds',
  'predicate',
]);
const CALLS_KEYS = new Set<string>(['ordered', 'server', 'turn', 'evidence']);
const STATUSES = ['success', 'tool_error', 'protocol_error', 'transport_error', 'cancelled', 'timed_out', 'incomplete'];

/** Thrown for option problems; the matcher turns it into a Jest usage error. */
export class OptionError extends Error {}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkKeys(options: Record<string, unknown>, allowed: Set<string>): void {
  for (const key of Object.keys(options)) {
    if (!allowed.has(key)) {
      throw new OptionError(`unknown option ${JSON.stringify(key)}; known options: ${[...allowed].join(', ')}`);
    }
  }
}

function nonNegativeInteger(options: Record<string, unknown>, key: string): number | undefined {
  const value = options[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new OptionError(`options.${key} must be a non-negative integer`);
  }
  return value;
}

function nonNegativeNumber(options: Record<string, unknown>, key: string): number | undefined {
  const value = options[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new OptionError(`options.${key} must be a finite non-negative number`);
  }
  return value;
}

function optionalFunction(options: Record<string, unknown>, key: string): void {
  if (options[key] !== undefined && typeof options[key] !== 'function') {
    throw new OptionError(`options.${key} must be a function`);
  }
}

function optionalString(options: Record<string, unknown>, key: string): void {
  if (options[key] !== undefined && (typeof options[key] !== 'string' || options[key] === '')) {
    throw new OptionError(`options.${key} must be a non-empty string`);
  }
}

/** The turn id a selector names. */
export function turnIdOf(turn: unknown): string {
  if (typeof turn === 'string' && turn !== '') return turn;
  if (isRecord(turn) && typeof turn.turnId === 'string') return turn.turnId;
  throw new OptionError('options.turn must be a TurnResult, an object with a turnId, or a turn id string');
}

function checkEvidence(options: Record<string, unknown>): void {
  if (options.evidence !== undefined && !TOOL_CALL_EVIDENCE.includes(options.evidence as ToolCallEvidence)) {
    throw new OptionError(`options.evidence must be one of ${TOOL_CALL_EVIDENCE.map((e) => `'${e}'`).join(', ')}`);
  }
}

/** Validates `toHaveToolCall` options (upstream's ValueError rules), throwing {@link OptionError}. */
export function validateToolCallOptions(input: unknown): ToolCallOptions {
  if (input === undefined) return {};
  if (!isRecord(input)) throw new OptionError('options must be an object');
  checkKeys(input, CALL_KEYS);
  optionalString(input, 'server');
  const count = nonNegativeInteger(input, 'count');
  const minCount = nonNegativeInteger(input, 'minCount');
  const maxCount = nonNegativeInteger(input, 'maxCount');
  if (count !== undefined && (minCount !== undefined || maxCount !== undefined)) {
    throw new OptionError('options.count cannot be combined with minCount or maxCount');
  }
  if (minCount !== undefined && maxCount !== undefined && minCount > maxCount) {
    throw new OptionError('options.minCount cannot exceed maxCount');
  }
  nonNegativeNumber(input, 'argumentsTolerance');
  nonNegativeInteger(input, 'inputRounds');
  const minLatency = nonNegativeNumber(input, 'minLatencyMs');
  const maxLatency = nonNegativeNumber(input, 'maxLatencyMs');
  if (minLatency !== undefined && maxLatency !== undefined && minLatency > maxLatency) {
    throw new OptionError('options.minLatencyMs cannot exceed maxLatencyMs');
  }
  if (input.status !== undefined && !STATUSES.includes(input.status as string)) {
    throw new OptionError(`options.status must be one of ${STATUSES.join(', ')}`);
  }
  optionalFunction(input, 'argumentPredicate');
  optionalFunction(input, 'predicate');
  checkEvidence(input);
  if (input.turn !== undefined) turnIdOf(input.turn);
  return input as ToolCallOptions;
}

/** Validates `toHaveToolCalls` options, throwing {@link OptionError}. */
export function validateToolCallsOptions(input: unknown): ToolCallsOptions {
  if (input === undefined) return {};
  if (!isRecord(input)) throw new OptionError('options must be an object');
  checkKeys(input, CALLS_KEYS);
  optionalString(input, 'server');
  if (input.ordered !== undefined && typeof input.ordered !== 'boolean') {
    throw new OptionError('options.ordered must be a boolean');
  }
  checkEvidence(input);
  if (input.turn !== undefined) turnIdOf(input.turn);
  return input as ToolCallsOptions;
}
