import type { MatcherContext } from 'expect';
import { defineMatcher } from './defineMatcher';
import type { M3MatcherScope, MatcherVerdict } from './defineMatcher';
import { matchValue, UNAVAILABLE } from './matchValue';
import { describeCalls, hint, notFinalizedMessage, redactedDiff, requireTraceSubject, usageError } from './messages';
import { resolveSubject } from '@sf-m3/core/internal';
import { toolCallCandidates } from './toolCallCandidates';
import { OptionError, turnIdOf, validateToolCallsOptions } from './toolCallOptions';
import type { ToolCallsOptions } from './toolCallOptions';

const NAME = 'toHaveToolCalls';

function assertToolCalls(
  this: MatcherContext,
  scope: M3MatcherScope,
  received: unknown,
  names: readonly string[],
  rawOptions?: ToolCallsOptions,
): MatcherVerdict {
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) {
    throw usageError(this, NAME, `${this.utils.EXPECTED_COLOR('expected')} value must be an array of tool names`, {
      label: 'Expected',
      value: names,
    });
  }
  let options: ToolCallsOptions;
  try {
    options = validateToolCallsOptions(rawOptions);
  } catch (error) {
    if (error instanceof OptionError) throw usageError(this, NAME, error.message);
    throw error;
  }
  const label = rawOptions ? 'names, options' : 'names';
  const resolution = resolveSubject(received);
  requireTraceSubject(this, NAME, resolution, received);
  if (resolution.status === 'not_finalized') {
    const negative = this.isNot === true || names.length === 0;
    return {
      pass: false,
      unusable: true,
      message: () => notFinalizedMessage(this, NAME, resolution.reason, negative, label),
    };
  }
  const evidence = options.evidence ?? 'wire';
  const turnId = options.turn === undefined ? undefined : turnIdOf(options.turn);
  const calls = toolCallCandidates(resolution.views, evidence).filter(
    (call) =>
      (options.server === undefined || call.server === options.server) &&
      (turnId === undefined || call.turnId === turnId),
  );
  const actual = calls.map((call) => (call.tool === UNAVAILABLE ? '[unavailable]' : call.tool));
  const ordered = options.ordered !== false;
  const pass = matchValue(actual, [...names], { unordered: !ordered });
  const message = () => {
    const sentence = this.isNot
      ? `Expected the ${ordered ? 'list' : 'multiset'} of called tools not to be:`
      : `Expected the ${ordered ? 'list' : 'multiset'} of called tools to be:`;
    const body = this.isNot
      ? `${sentence}\n  ${this.utils.printExpected(scope.safe(names))}`
      : `${sentence}\n\n${redactedDiff(this, scope, [...names], actual)}`;
    return (
      `${hint(this, NAME, label)}\n\n${body}\n\n` +
      `Calls that happened (${evidence} evidence):\n${describeCalls(calls, scope.redactor)}`
    );
  };
  return { pass, message };
}

/**
 * `expect(subject).toHaveToolCalls(names, { ordered = true, server, turn, evidence })`: the full
 * list of called tool names (with repeats) equals `names`, or is the same multiset when unordered.
 */
export const toHaveToolCalls = defineMatcher<[names: readonly string[], options?: ToolCallsOptions]>(
  NAME,
  assertToolCalls,
);
