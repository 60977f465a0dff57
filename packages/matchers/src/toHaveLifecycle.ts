import type { MatcherContext } from 'expect';
import { defineMatcher } from './defineMatcher';
import type { M3MatcherScope, MatcherVerdict } from './defineMatcher';
import { hint, usageError } from './messages';
import { factsOrThrow } from './toHaveOutcome';

const LIFECYCLES = ['created', 'starting', 'idle', 'running_turn', 'closing', 'finished'];

function assertLifecycle(
  this: MatcherContext,
  _scope: M3MatcherScope,
  received: unknown,
  expected: string,
): MatcherVerdict {
  const name = 'toHaveLifecycle';
  if (!LIFECYCLES.includes(expected)) {
    throw usageError(this, name, `expected lifecycle must be one of ${LIFECYCLES.join(', ')}`, {
      label: 'Expected',
      value: expected,
    });
  }
  const facts = factsOrThrow(this, name, received);
  const pass = facts.lifecycle === expected;
  const message = () =>
    `${hint(this, name, 'lifecycle')}\n\n` +
    `Expected lifecycle: ${this.isNot ? 'not ' : ''}${this.utils.printExpected(expected)}\n` +
    `Received lifecycle: ${facts.lifecycle === null ? 'unknown (the subject has no snapshot)' : this.utils.printReceived(facts.lifecycle)}`;
  return { pass, message };
}

/** `expect(execution).toHaveLifecycle(l)`: the execution snapshot's lifecycle is `l`. */
export const toHaveLifecycle = defineMatcher<[lifecycle: string]>('toHaveLifecycle', assertLifecycle);
