import type { MatcherContext } from 'expect';
import type { M3MatcherScope } from './defineMatcher';
import type { RedactorLike } from './findKit';
import { preview } from './formatValue';
import { UNAVAILABLE } from './matchValue';
import type { SubjectResolution } from '@sf-m3/core/internal';
import type { ToolCallCandidate } from './toolCallCandidates';

/** Most calls listed in a failure message. */
export const MAX_LISTED_CALLS = 20;

/** `expect(received)[.not].matcher(args)` in Jest's colours. */
export function hint(context: MatcherContext, matcherName: string, expectedLabel = 'expected'): string {
  return context.utils.matcherHint(matcherName, 'received', expectedLabel, {
    isNot: context.isNot,
    promise: context.promise,
  });
}

/** A usage error (bad arguments to the matcher), thrown rather than reported as a failed assertion. */
export function usageError(
  context: MatcherContext,
  matcherName: string,
  problem: string,
  received?: { label: string; value: unknown },
): Error {
  const specific =
    received === undefined
      ? undefined
      : context.utils.printWithType(received.label, received.value, context.utils.printReceived);
  const error = new Error(context.utils.matcherErrorMessage(hint(context, matcherName), problem, specific));
  Error.captureStackTrace?.(error, usageError);
  return error;
}

/** The subjects a trace-backed matcher accepts, named for usage errors. */
export const TRACE_SUBJECTS =
  'a TraceView, TraceResult, ExecutionResult, closed DirectClient or agent session, or TurnResult';

/** Jest's diff of the expected and received values, both redacted, honouring `--expand` like Jest's own matchers. */
export function redactedDiff(
  context: MatcherContext,
  scope: M3MatcherScope,
  expected: unknown,
  received: unknown,
  expectedLabel = 'Expected',
  receivedLabel = 'Received',
): string {
  return context.utils.printDiffOrStringify(
    scope.safe(expected),
    scope.safe(received),
    expectedLabel,
    receivedLabel,
    context.expand !== false,
  );
}

/** Throws when a subject is not trace-backed at all. */
export function requireTraceSubject(
  context: MatcherContext,
  matcherName: string,
  resolution: SubjectResolution,
  received: unknown,
): asserts resolution is Exclude<SubjectResolution, { status: 'unsupported' }> {
  if (resolution.status === 'unsupported') {
    throw usageError(
      context,
      matcherName,
      `${context.utils.RECEIVED_COLOR('received')} value must be ${TRACE_SUBJECTS}`,
      {
        label: 'Received',
        value: received,
      },
    );
  }
}

/** Why an unfinalized subject cannot be asserted on, and how to fix it. */
export function notFinalizedMessage(
  context: MatcherContext,
  matcherName: string,
  reason: string,
  negative: boolean,
  label = 'expected',
): string {
  const what = negative
    ? 'a negative assertion needs a finalized subject, because calls may still happen'
    : 'finalized trace unavailable';
  return (
    `${hint(context, matcherName, label)}\n\n` +
    `${what} (reason=${reason}).\n` +
    'Close the client or session (or await the execution result) before asserting on its trace.'
  );
}

function field(value: unknown, fallback: string): string {
  return value === UNAVAILABLE || value === undefined || value === null ? fallback : String(value);
}

/** One numbered line per tool call: tool, server, status, latency and an arguments preview. */
export function describeCalls(calls: readonly ToolCallCandidate[], redactor: RedactorLike): string {
  if (calls.length === 0) return '  (none)';
  const lines = calls.slice(0, MAX_LISTED_CALLS).map((call, index) => {
    const latency = call.latencyMs === UNAVAILABLE ? '' : ` ${Math.round(call.latencyMs)}ms`;
    const turn = call.turnId ? ` turn=${call.turnId}` : '';
    const rounds = call.inputRounds !== UNAVAILABLE && call.inputRounds > 0 ? ` inputRounds=${call.inputRounds}` : '';
    return (
      `  ${index + 1}. ${redactor.redactText(field(call.tool, '[unavailable tool]'))} ` +
      `on ${redactor.redactText(field(call.server, '[unknown server]'))} ` +
      `(${field(call.status, 'unknown')}${latency}${turn}${rounds}) args=${preview(call.arguments, redactor)}`
    );
  });
  if (calls.length > MAX_LISTED_CALLS) lines.push(`  … and ${calls.length - MAX_LISTED_CALLS} more`);
  return lines.join('\n');
}

/** `1 call` / `2 calls`. */
export const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Throws a usage error unless `options` is a plain object whose keys are all in `allowed`. */
export function checkOptions(
  context: MatcherContext,
  matcherName: string,
  options: unknown,
  allowed: readonly string[],
  shape: string,
): void {
  const ok =
    typeof options === 'object' &&
    options !== null &&
    !Array.isArray(options) &&
    Object.keys(options).every((key) => allowed.includes(key));
  if (!ok) throw usageError(context, matcherName, `options must be ${shape}`);
}
