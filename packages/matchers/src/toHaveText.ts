import type { MatcherContext } from 'expect';
import { defineMatcher } from './defineMatcher';
import type { M3MatcherScope, MatcherVerdict } from './defineMatcher';
import { hint, redactedDiff, usageError } from './messages';
import { resolveText, TEXT_SUBJECTS } from './resolveText';

function textOf(context: MatcherContext, name: string, received: unknown): string {
  const text = resolveText(received);
  if (text === undefined) {
    throw usageError(context, name, `${context.utils.RECEIVED_COLOR('received')} value must be ${TEXT_SUBJECTS}`, {
      label: 'Received',
      value: received,
    });
  }
  return text;
}

function requireString(context: MatcherContext, name: string, expected: unknown): asserts expected is string {
  if (typeof expected !== 'string') {
    throw usageError(context, name, `${context.utils.EXPECTED_COLOR('expected')} value must be a string`, {
      label: 'Expected',
      value: expected,
    });
  }
}

function textEquals(this: MatcherContext, scope: M3MatcherScope, received: unknown, expected: string): MatcherVerdict {
  const name = 'toHaveText';
  requireString(this, name, expected);
  const actual = textOf(this, name, received);
  const pass = actual === expected;
  const message = () =>
    `${hint(this, name)}\n\n` +
    (this.isNot
      ? `Expected text not to be: ${this.utils.printExpected(scope.safe(expected))}`
      : redactedDiff(this, scope, expected, actual, 'Expected text', 'Received text'));
  return { pass, message };
}

function textContains(
  this: MatcherContext,
  scope: M3MatcherScope,
  received: unknown,
  expected: string,
): MatcherVerdict {
  const name = 'toHaveTextContaining';
  requireString(this, name, expected);
  const actual = textOf(this, name, received);
  const pass = actual.includes(expected);
  const message = () =>
    `${hint(this, name)}\n\n` +
    `Expected text ${this.isNot ? 'not ' : ''}to contain: ${this.utils.printExpected(scope.safe(expected))}\n` +
    `Received text: ${this.utils.printReceived(scope.safe(actual))}`;
  return { pass, message };
}

function textMatches(
  this: MatcherContext,
  scope: M3MatcherScope,
  received: unknown,
  pattern: RegExp | string,
): MatcherVerdict {
  const name = 'toHaveTextMatching';
  const isRegExp = Object.prototype.toString.call(pattern) === '[object RegExp]';
  if (!isRegExp && typeof pattern !== 'string') {
    throw usageError(
      this,
      name,
      `${this.utils.EXPECTED_COLOR('expected')} value must be a RegExp or a string pattern`,
      {
        label: 'Expected',
        value: pattern,
      },
    );
  }
  const actual = textOf(this, name, received);
  const regex = isRegExp
    ? new RegExp((pattern as RegExp).source, (pattern as RegExp).flags.replace(/[gy]/g, ''))
    : new RegExp(pattern as string);
  const pass = regex.test(actual);
  const message = () =>
    `${hint(this, name, 'pattern')}\n\n` +
    `Expected text ${this.isNot ? 'not ' : ''}to match: ${this.utils.printExpected(regex)}\n` +
    `Received text: ${this.utils.printReceived(scope.safe(actual))}`;
  return { pass, message };
}

/** `expect(x).toHaveText(s)`: the joined text equals `s`. */
export const toHaveText = defineMatcher<[expected: string]>('toHaveText', textEquals);
/** `expect(x).toHaveTextContaining(s)`: the joined text contains `s`. */
export const toHaveTextContaining = defineMatcher<[expected: string]>('toHaveTextContaining', textContains);
/** `expect(x).toHaveTextMatching(re)`: the joined text matches `re` (a search, not a full match; `g`/`y` ignored). */
export const toHaveTextMatching = defineMatcher<[pattern: RegExp | string]>('toHaveTextMatching', textMatches);
