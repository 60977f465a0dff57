import type { MatcherContext } from 'expect';
import { defineMatcher } from './defineMatcher';
import type { M3MatcherScope, MatcherVerdict } from './defineMatcher';
import { isPlainObject, matchValue } from './matchValue';
import { hint } from './messages';
import { factsOrThrow } from './toHaveOutcome';

/** What `toHaveError` accepts: a code or message text, a RegExp on the message, or a partial `ErrorInfo`. */
export type ExpectedError =
  string | RegExp | { readonly code?: string; readonly message?: unknown; readonly details?: unknown };

function errorMatches(error: unknown, expected: ExpectedError | undefined): boolean {
  if (error === undefined || error === null) return false;
  if (expected === undefined) return true;
  const info = isPlainObject(error) ? error : { message: String(error) };
  const message = typeof info.message === 'string' ? info.message : '';
  if (typeof expected === 'string') return info.code === expected || message.includes(expected);
  if (Object.prototype.toString.call(expected) === '[object RegExp]') return (expected as RegExp).test(message);
  return matchValue(info, expected, { partial: true });
}

function assertError(
  this: MatcherContext,
  scope: M3MatcherScope,
  received: unknown,
  expected?: ExpectedError,
): MatcherVerdict {
  const name = 'toHaveError';
  const facts = factsOrThrow(this, name, received);
  const pass = errorMatches(facts.error, expected);
  const message = () => {
    const wanted =
      expected === undefined ? 'an error' : `an error matching ${this.utils.printExpected(scope.safe(expected))}`;
    const got =
      facts.error === undefined || facts.error === null
        ? 'no error'
        : this.utils.printReceived(scope.safe(facts.error));
    return `${hint(this, name, expected === undefined ? '' : 'expected')}\n\nExpected: ${this.isNot ? 'not ' : ''}${wanted}\nReceived: ${got}`;
  };
  return { pass, message };
}

/**
 * `expect(execution).toHaveError(expected?)`: the execution (or turn) ended with an error; a string
 * matches the code or a substring of the message, a RegExp the message, an object is a partial match.
 */
export const toHaveError = defineMatcher<[expected?: ExpectedError]>('toHaveError', assertError);
