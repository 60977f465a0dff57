import type { MatcherContext } from 'expect';
import { defineMatcher } from './defineMatcher';
import type { M3MatcherScope, MatcherVerdict } from './defineMatcher';
import { checkOptions, hint, usageError } from './messages';
import { factsOrThrow } from './toHaveOutcome';

/** Options of `toHaveDuration` (at least one bound). */
export interface DurationOptions {
  readonly minMs?: number;
  readonly maxMs?: number;
}

function bound(context: MatcherContext, options: DurationOptions, key: keyof DurationOptions): number | undefined {
  const value: unknown = options[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw usageError(context, 'toHaveDuration', `options.${key} must be a finite non-negative number`);
  }
  return value;
}

function assertDuration(
  this: MatcherContext,
  _scope: M3MatcherScope,
  received: unknown,
  options: DurationOptions,
): MatcherVerdict {
  const name = 'toHaveDuration';
  checkOptions(this, name, options, ['minMs', 'maxMs'], '{ minMs?: number, maxMs?: number }');
  const minMs = bound(this, options, 'minMs');
  const maxMs = bound(this, options, 'maxMs');
  if (minMs === undefined && maxMs === undefined)
    throw usageError(this, name, 'give options.minMs, options.maxMs or both');
  if (minMs !== undefined && maxMs !== undefined && minMs > maxMs) {
    throw usageError(this, name, 'options.minMs cannot exceed options.maxMs');
  }
  const facts = factsOrThrow(this, name, received);
  const range = `${minMs ?? 0}ms..${maxMs === undefined ? '∞' : `${maxMs}ms`}`;
  if (facts.durationMs === null) {
    return {
      pass: false,
      unusable: true,
      message: () =>
        `${hint(this, name, 'options')}\n\nthe duration is unknown: the execution has not finished. ` +
        'Close the client or session (or await the execution result) first.',
    };
  }
  const ms = facts.durationMs;
  const pass = (minMs === undefined || ms >= minMs) && (maxMs === undefined || ms <= maxMs);
  const message = () =>
    `${hint(this, name, 'options')}\n\n` +
    `Expected duration: ${this.isNot ? 'not ' : ''}within ${this.utils.EXPECTED_COLOR(range)}\n` +
    `Received duration: ${this.utils.RECEIVED_COLOR(`${ms}ms`)}`;
  return { pass, message };
}

/** `expect(subject).toHaveDuration({ minMs, maxMs })`: the execution's duration is within the bounds. */
export const toHaveDuration = defineMatcher<[options: DurationOptions]>('toHaveDuration', assertDuration);
