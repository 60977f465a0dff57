import type { MatcherContext } from 'expect';
import { defineMatcher } from './defineMatcher';
import type { M3MatcherScope, MatcherVerdict } from './defineMatcher';
import { EXECUTION_SUBJECTS, executionFacts } from './executionFacts';
import type { ExecutionFacts } from './executionFacts';
import { hint, usageError } from './messages';

const OUTCOMES = ['completed', 'failed', 'timed_out', 'cancelled', 'interrupted'];

/** The facts of an execution-like subject, or a usage error naming the accepted subjects. */
export function factsOrThrow(context: MatcherContext, name: string, received: unknown): ExecutionFacts {
  const facts = executionFacts(received);
  if (facts === undefined) {
    throw usageError(context, name, `${context.utils.RECEIVED_COLOR('received')} value must be ${EXECUTION_SUBJECTS}`, {
      label: 'Received',
      value: received,
    });
  }
  return facts;
}

function outcomeVerdict(
  context: MatcherContext,
  name: string,
  label: string,
  received: unknown,
  expected: string,
): MatcherVerdict {
  const facts = factsOrThrow(context, name, received);
  const pass = facts.outcome === expected;
  const message = () => {
    const error =
      facts.error !== undefined && facts.error !== null && typeof facts.error === 'object'
        ? `\nError: ${String((facts.error as { code?: unknown }).code ?? '')} ${String((facts.error as { message?: unknown }).message ?? '')}`.trimEnd()
        : '';
    return (
      `${hint(context, name, label)}\n\n` +
      `Expected outcome: ${context.isNot ? 'not ' : ''}${context.utils.printExpected(expected)}\n` +
      `Received outcome: ${facts.outcome === null ? 'none yet (the execution has not finished)' : context.utils.printReceived(facts.outcome)}` +
      error
    );
  };
  return { pass, message };
}

function assertOutcome(
  this: MatcherContext,
  _scope: M3MatcherScope,
  received: unknown,
  expected: string,
): MatcherVerdict {
  if (!OUTCOMES.includes(expected)) {
    throw usageError(this, 'toHaveOutcome', `expected outcome must be one of ${OUTCOMES.join(', ')}`, {
      label: 'Expected',
      value: expected,
    });
  }
  return outcomeVerdict(this, 'toHaveOutcome', 'outcome', received, expected);
}

function assertCompleted(this: MatcherContext, _scope: M3MatcherScope, received: unknown): MatcherVerdict {
  return outcomeVerdict(this, 'toBeCompleted', '', received, 'completed');
}

/** `expect(execution).toHaveOutcome(o)`: the execution (or turn) ended with outcome `o`. */
export const toHaveOutcome = defineMatcher<[outcome: string]>('toHaveOutcome', assertOutcome);
/** `expect(execution).toBeCompleted()`: the outcome is `completed`. */
export const toBeCompleted = defineMatcher<[]>('toBeCompleted', assertCompleted);
