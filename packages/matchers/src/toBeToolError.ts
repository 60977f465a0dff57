import type { MatcherContext } from 'expect';
import { defineMatcher } from './defineMatcher';
import type { M3MatcherScope, MatcherVerdict } from './defineMatcher';
import { hint, usageError } from './messages';
import { resolveText, unwrapDirectResult } from './resolveText';

function assertToolError(
  this: MatcherContext,
  scope: M3MatcherScope,
  received: unknown,
  text?: string,
): MatcherVerdict {
  const name = 'toBeToolError';
  received = unwrapDirectResult(received);
  if (
    typeof received !== 'object' ||
    received === null ||
    typeof (received as { isError?: unknown }).isError !== 'boolean'
  ) {
    throw usageError(
      this,
      name,
      `${this.utils.RECEIVED_COLOR('received')} value must be a tool result (with isError)`,
      {
        label: 'Received',
        value: received,
      },
    );
  }
  if (text !== undefined && typeof text !== 'string') {
    throw usageError(this, name, `${this.utils.EXPECTED_COLOR('expected')} text must be a string`, {
      label: 'Expected',
      value: text,
    });
  }
  const isError = (received as { isError: boolean }).isError;
  const actualText = resolveText(received) ?? '';
  const pass = isError && (text === undefined || actualText.includes(text));
  const message = () => {
    const expectation =
      text === undefined
        ? `a tool error (isError: true)`
        : `a tool error whose text contains ${this.utils.printExpected(scope.safe(text))}`;
    return (
      `${hint(this, name, text === undefined ? '' : 'text')}\n\n` +
      `Expected: ${this.isNot ? 'not ' : ''}${expectation}\n` +
      `Received: isError ${this.utils.printReceived(isError)}, text ${this.utils.printReceived(scope.safe(actualText))}`
    );
  };
  return { pass, message };
}

/** `expect(toolResult).toBeToolError(text?)`: `isError` is true (and the text contains `text`). */
export const toBeToolError = defineMatcher<[text?: string]>('toBeToolError', assertToolError);
