import type { MatcherContext } from 'expect';
import { defineMatcher } from './defineMatcher';
import type { M3MatcherScope, MatcherVerdict } from './defineMatcher';
import { isPlainObject, matchValue } from './matchValue';
import { checkOptions, hint, redactedDiff, usageError } from './messages';
import { unwrapDirectResult } from './resolveText';

/** Options of `toHaveStructuredContent`. */
export interface StructuredContentOptions {
  /** Expected keys must match; extra keys are allowed (recursively). */
  readonly partial?: boolean;
}

function assertStructured(
  this: MatcherContext,
  scope: M3MatcherScope,
  received: unknown,
  expected: unknown,
  options: StructuredContentOptions = {},
): MatcherVerdict {
  const name = 'toHaveStructuredContent';
  received = unwrapDirectResult(received);
  if (!isPlainObject(received)) {
    throw usageError(this, name, `${this.utils.RECEIVED_COLOR('received')} value must be a tool result`, {
      label: 'Received',
      value: received,
    });
  }
  checkOptions(this, name, options, ['partial'], '{ partial?: boolean }');
  const actual = 'structuredContent' in received ? received.structuredContent : undefined;
  const pass = actual !== undefined && matchValue(actual, expected, { partial: options.partial === true });
  const message = () => {
    const mode = options.partial === true ? 'to contain' : 'to equal';
    if (actual === undefined) {
      return `${hint(this, name)}\n\nExpected structuredContent ${mode}: ${this.utils.printExpected(scope.safe(expected))}\nReceived: the result has no structuredContent`;
    }
    if (this.isNot) {
      return `${hint(this, name)}\n\nExpected structuredContent not ${mode}: ${this.utils.printExpected(scope.safe(expected))}\nReceived: ${this.utils.printReceived(scope.safe(actual))}`;
    }
    return (
      `${hint(this, name)}\n\nExpected structuredContent ${mode} the expected value\n\n` +
      redactedDiff(this, scope, expected, actual)
    );
  };
  return { pass, message };
}

/** `expect(toolResult).toHaveStructuredContent(v, { partial? })`: deep equality (or subset). */
export const toHaveStructuredContent = defineMatcher<[expected: unknown, options?: StructuredContentOptions]>(
  'toHaveStructuredContent',
  assertStructured,
);
