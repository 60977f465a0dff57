import { formatFailureMessage, MAX_FAILURE_MESSAGE_LENGTH } from './failureMessage';

const identity = (text: string) => text;

describe('formatFailureMessage', () => {
  test('is null without errors', () => {
    expect(formatFailureMessage([], identity)).toBeNull();
  });

  test('joins errors and [error, asyncError] pairs, strips colours, keeps non-Error names', () => {
    const message = formatFailureMessage(
      [[new Error('\u001b[2mexpect\u001b[22m failed'), new Error('async')], new TypeError('bad'), 'thrown string'],
      identity,
    );
    expect(message).toBe('expect failed\n\nTypeError: bad\n\nthrown string');
  });

  test('redacts, then bounds', () => {
    const message = formatFailureMessage([new Error(`secret ${'x'.repeat(MAX_FAILURE_MESSAGE_LENGTH)}`)], (t) =>
      t.replace('secret', '[REDACTED]'),
    ) as string;
    expect(message.startsWith('[REDACTED] x')).toBe(true);
    expect(message).toMatch(/… \[truncated, 20011 characters\]$/);
  });
});
