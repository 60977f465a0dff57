import type { MatcherContext } from 'expect';
import { defineMatcher } from './defineMatcher';
import type { M3MatcherScope, MatcherVerdict } from './defineMatcher';
import { checkOptions, hint, notFinalizedMessage, requireTraceSubject, usageError } from './messages';
import { resolveSubject } from '@sf-m3/core/internal';

/** Options of `toHaveTrace`. */
export interface TraceOptions {
  /** `complete` or `partial` (direct traces are `partial`). */
  readonly completeness?: 'complete' | 'partial';
  /** A limitation every view must list, e.g. `capture_incomplete`. */
  readonly limitation?: string;
}

function assertTrace(
  this: MatcherContext,
  scope: M3MatcherScope,
  received: unknown,
  options: TraceOptions = {},
): MatcherVerdict {
  const name = 'toHaveTrace';
  checkOptions(
    this,
    name,
    options,
    ['completeness', 'limitation'],
    "{ completeness?: 'complete' | 'partial', limitation?: string }",
  );
  if (options.completeness !== undefined && options.completeness !== 'complete' && options.completeness !== 'partial') {
    throw usageError(this, name, "options.completeness must be 'complete' or 'partial'");
  }
  const resolution = resolveSubject(received);
  requireTraceSubject(this, name, resolution, received);
  if (resolution.status === 'not_finalized') {
    return {
      pass: false,
      unusable: true,
      message: () => notFinalizedMessage(this, name, resolution.reason, this.isNot === true, 'options'),
    };
  }
  const views = resolution.views;
  const pass =
    views.length > 0 &&
    views.every(
      (view) =>
        (options.completeness === undefined || view.completeness === options.completeness) &&
        (options.limitation === undefined || view.limitations.includes(options.limitation)),
    );
  const actual = views.map((view) => ({ completeness: view.completeness, limitations: [...view.limitations] }));
  const message = () =>
    `${hint(this, name, 'options')}\n\n` +
    `Expected trace ${this.isNot ? 'not ' : ''}to have: ${this.utils.printExpected(scope.safe(options))}\n` +
    `Received: ${this.utils.printReceived(scope.safe(actual.length === 1 ? actual[0] : actual))}`;
  return { pass, message };
}

/** `expect(subject).toHaveTrace({ completeness, limitation })`: the finalized trace has that completeness / limitation. */
export const toHaveTrace = defineMatcher<[options?: TraceOptions]>('toHaveTrace', assertTrace);
