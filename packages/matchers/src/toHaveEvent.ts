import type { EntryKind } from '@sf-m3/core';
import { resolveSubject } from '@sf-m3/core/internal';
import type { MatcherContext } from 'expect';
import { defineMatcher } from './defineMatcher';
import type { M3MatcherScope, MatcherVerdict } from './defineMatcher';
import { checkOptions, hint, notFinalizedMessage, requireTraceSubject, usageError } from './messages';

/** The public timeline entry kinds `toHaveEvent` counts. */
export const ENTRY_KINDS: readonly EntryKind[] = [
  'lifecycle',
  'message',
  'reasoning',
  'tool_call',
  'protocol',
  'transport',
  'initialization',
  'usage',
  'interaction',
  'process',
  'diagnostic',
  'raw_message',
  'evaluation',
];

/** Options of `toHaveEvent`. */
export interface EventOptions {
  /** Exactly this many entries of the kind (default: at least one). */
  readonly count?: number;
}

function assertEvent(
  this: MatcherContext,
  scope: M3MatcherScope,
  received: unknown,
  kind: EntryKind,
  options: EventOptions = {},
): MatcherVerdict {
  const name = 'toHaveEvent';
  if (typeof kind !== 'string' || !ENTRY_KINDS.includes(kind)) {
    const dotted = typeof kind === 'string' && kind.includes('.');
    throw usageError(
      this,
      name,
      `${this.utils.EXPECTED_COLOR('expected')} value must be a timeline entry kind: ${ENTRY_KINDS.join(', ')}` +
        (dotted
          ? ` (${kind} is a raw event kind; assert on the entry it projects to, e.g. 'protocol' or 'tool_call')`
          : ''),
      { label: 'Expected', value: kind },
    );
  }
  checkOptions(this, name, options, ['count'], '{ count?: number }');
  if (options.count !== undefined && (!Number.isInteger(options.count) || options.count < 0)) {
    throw usageError(this, name, 'options.count must be a non-negative integer');
  }
  const resolution = resolveSubject(received);
  requireTraceSubject(this, name, resolution, received);
  const negative = this.isNot === true || options.count === 0;
  if (resolution.status === 'not_finalized') {
    return {
      pass: false,
      unusable: true,
      message: () => notFinalizedMessage(this, name, resolution.reason, negative, 'kind'),
    };
  }
  const counts = new Map<string, number>();
  for (const view of resolution.views) {
    for (const entry of view.timeline) counts.set(entry.kind, (counts.get(entry.kind) ?? 0) + 1);
  }
  const n = counts.get(kind) ?? 0;
  const pass = options.count === undefined ? n >= 1 : n === options.count;
  const message = () => {
    const entries = (c: number) => `${c} ${kind} ${c === 1 ? 'entry' : 'entries'}`;
    const wanted = options.count === undefined ? `at least ${entries(1)}` : `exactly ${entries(options.count)}`;
    const seen = [...counts].map(([k, c]) => `${k}=${c}`).join(', ') || 'none';
    return (
      `${hint(this, name, 'kind')}\n\n` +
      `Expected: ${this.isNot ? 'not ' : ''}${wanted}\n` +
      `Received: ${this.utils.printReceived(n)} ${scope.redactor.redactText(kind)} ${n === 1 ? 'entry' : 'entries'}\n` +
      `Timeline entries by kind: ${seen}`
    );
  };
  return { pass, message };
}

/** `expect(subject).toHaveEvent(entryKind, { count })`: the timeline holds entries of that kind. */
export const toHaveEvent = defineMatcher<[kind: EntryKind, options?: EventOptions]>('toHaveEvent', assertEvent);
