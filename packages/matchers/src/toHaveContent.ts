import type { MatcherContext } from 'expect';
import { defineMatcher } from './defineMatcher';
import type { M3MatcherScope, MatcherVerdict } from './defineMatcher';
import { matchValue } from './matchValue';
import { checkOptions, hint, redactedDiff, usageError } from './messages';
import { resolveContent } from './resolveText';

/** Options of `toHaveContent`. */
export interface ContentOptions {
  /** Compare pairwise in order (default) or as a multiset. */
  readonly ordered?: boolean;
}

function assertContent(
  this: MatcherContext,
  scope: M3MatcherScope,
  received: unknown,
  expected: unknown,
  options: ContentOptions = {},
): MatcherVerdict {
  const name = 'toHaveContent';
  const actual = resolveContent(received);
  if (actual === undefined) {
    throw usageError(
      this,
      name,
      `${this.utils.RECEIVED_COLOR('received')} value must be a tool result or a TurnResult`,
      {
        label: 'Received',
        value: received,
      },
    );
  }
  checkOptions(this, name, options, ['ordered'], '{ ordered?: boolean }');
  const blocks = Array.isArray(expected) ? expected : [expected];
  const ordered = options.ordered !== false;
  const pass = matchValue(actual, blocks, { unordered: !ordered });
  const message = () => {
    const what = ordered ? 'content blocks (in order)' : 'content blocks (in any order)';
    if (this.isNot) {
      return `${hint(this, name)}\n\nExpected ${what} not to be: ${this.utils.printExpected(scope.safe(blocks))}`;
    }
    return (
      `${hint(this, name)}\n\nExpected ${what} to be exactly the expected blocks\n\n` +
      redactedDiff(this, scope, blocks, actual)
    );
  };
  return { pass, message };
}

/** `expect(toolResultOrTurn).toHaveContent(blocks, { ordered? })`: the content blocks match exactly. */
export const toHaveContent = defineMatcher<[expected: unknown, options?: ContentOptions]>(
  'toHaveContent',
  assertContent,
);
