import { formatFailureMessage, MAX_FAILURE_MESSAGE_LENGTH, redactTestErrors } from './failureMessage';

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

describe('redactTestErrors', () => {
  const redact = (text: string) => text.split('sk-canary-42').join('[REDACTED]');

  test('rewrites what Jest prints: message, stack, cause, AggregateError.errors, matcher results, thrown strings', () => {
    const error = new Error('bad key sk-canary-42', { cause: new Error('inner sk-canary-42') }) as Error & {
      matcherResult?: { message: string; actual: string; pass: boolean };
    };
    error.matcherResult = { message: 'expected sk-canary-42', actual: 'sk-canary-42', pass: false };
    const aggregate = new AggregateError([new Error('one sk-canary-42')], 'many sk-canary-42');
    const errors: unknown[] = [error, [aggregate, new Error('async')], 'thrown sk-canary-42'];
    redactTestErrors(errors, redact);
    const seen = JSON.stringify(errors, (_k, v: unknown) =>
      v instanceof Error ? { ...v, message: v.message, stack: v.stack, cause: v.cause } : v,
    );
    expect(seen).not.toContain('sk-canary-42');
    expect(errors[0]).toBe(error);
    expect(error.message).toBe('bad key [REDACTED]');
    expect((error.cause as Error).message).toBe('inner [REDACTED]');
    expect(((errors[1] as unknown[])[0] as AggregateError).errors[0].message).toBe('one [REDACTED]');
    expect(errors[2]).toBe('thrown [REDACTED]');
  });

  test('an error whose message cannot be written is replaced by a redacted copy', () => {
    const frozen = Object.freeze(new Error('frozen sk-canary-42'));
    const errors: unknown[] = [frozen];
    redactTestErrors(errors, redact);
    expect(errors[0]).not.toBe(frozen);
    expect((errors[0] as Error).message).toBe('frozen [REDACTED]');
    expect((errors[0] as Error).stack).not.toContain('sk-canary-42');
  });
});
