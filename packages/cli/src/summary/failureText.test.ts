import { Redactor } from '@sf-m3/core';
import { failureHeadline, fullFailureMessage, MAX_FAILURE_MESSAGE_BYTES, MAX_HEADLINE_CHARS } from './failureText';

const redactor = new Redactor(['sk-live-secret-1234']);

describe('failureHeadline: the first line that says what went wrong', () => {
  test('skips blank lines and the matcher hint of an m3 matcher', () => {
    const message =
      'expect(received).toHaveStructuredContent(expected)\n\nExpected structuredContent to equal the expected value\n\n' +
      '- Expected  - 1\n+ Received  + 1\n\n  Object {\n-   "amount": 10,\n+   "amount": 9,\n  }\n\nexecutionId=exec-1';
    expect(failureHeadline(message, redactor)).toBe('Expected structuredContent to equal the expected value');
  });

  test('joins an Expected line with the Received line of its paragraph', () => {
    const matching =
      'expect(received).toHaveToolCall(tool, options)\n\nExpected: at least 1 call to delete_order\n' +
      'Matching: {"status": "success"}\nReceived: 0 matching calls (1 call in total)\n\nCalls that happened:\nReceived: x';
    expect(failureHeadline(matching, redactor)).toBe(
      'Expected: at least 1 call to delete_order; Received: 0 matching calls (1 call in total)',
    );
    expect(failureHeadline('Expected the judge to pass\n\nReceived: elsewhere', redactor)).toBe(
      'Expected the judge to pass',
    );
    const message =
      'expect(received).not.toHaveToolCall(tool, options)\n\nExpected: exactly 3 calls to get_weather\n' +
      'Received: 2 matching calls (3 calls in total)\n\nCalls that happened (wire evidence):\n  1. get_weather';
    expect(failureHeadline(message, redactor)).toBe(
      'Expected: exactly 3 calls to get_weather; Received: 2 matching calls (3 calls in total)',
    );
    expect(
      failureHeadline('expect(received).toBe(expected) // Object.is equality\n\nExpected: 2\nReceived: 1', redactor),
    ).toBe('Expected: 2; Received: 1');
  });

  test('ANSI codes and promise hints are skipped too', () => {
    const message =
      '\u001b[2mexpect(\u001b[22m\u001b[31mreceived\u001b[39m\u001b[2m).\u001b[22mresolves\u001b[2m.\u001b[22mtoSatisfyJudge' +
      '\u001b[2m(\u001b[22m\u001b[32mjudge, options\u001b[39m\u001b[2m)\u001b[22m\n\n\u001b[1mExpected the judge to pass the response\u001b[22m';
    expect(failureHeadline(message, redactor)).toBe('Expected the judge to pass the response');
  });

  test('a plain error keeps its first line; a diff with no sentence falls back to the hint', () => {
    expect(failureHeadline('\nTypeError: quote.amount is not a function\n  at stack', redactor)).toBe(
      'TypeError: quote.amount is not a function',
    );
    expect(
      failureHeadline(
        'expect(received).toEqual(expected) // deep equality\n\n- Expected  - 1\n+ Received  + 1\n\n- 1\n+ 2',
        redactor,
      ),
    ).toBe('expect(received).toEqual(expected) // deep equality');
  });

  test('redacted, bounded, and null for nothing', () => {
    expect(failureHeadline('expected 9 with key sk-live-secret-1234', redactor)).toBe('expected 9 with key [REDACTED]');
    const long = failureHeadline('x'.repeat(500), redactor)!;
    expect(long).toHaveLength(MAX_HEADLINE_CHARS);
    expect(long.endsWith('…')).toBe(true);
    expect(failureHeadline(null, redactor)).toBeNull();
    expect(failureHeadline('\n \n', redactor)).toBeNull();
  });
});

describe('fullFailureMessage: the whole message for feedback.json', () => {
  test('every line, without colours, redacted', () => {
    const message =
      '\u001b[31mexpect(received).toBe(expected)\u001b[39m\n\nExpected: "sk-live-secret-1234"\nReceived: 1';
    expect(fullFailureMessage(message, redactor)).toBe(
      'expect(received).toBe(expected)\n\nExpected: "[REDACTED]"\nReceived: 1',
    );
    expect(fullFailureMessage(null, redactor)).toBeNull();
  });

  test('bounded to 8 KiB of UTF-8, saying how much was cut, never splitting a character', () => {
    const message = `${'é'.repeat(6000)}\nlast line`;
    const bounded = fullFailureMessage(message, redactor)!;
    expect(Buffer.byteLength(bounded, 'utf8')).toBeLessThanOrEqual(MAX_FAILURE_MESSAGE_BYTES);
    expect(bounded).toMatch(/… \[truncated: \d+ of 12010 bytes shown\]$/);
    expect(bounded).not.toContain('\uFFFD');
    expect(bounded.startsWith('é'.repeat(100))).toBe(true);
  });

  test('a secret straddling the cut is redacted before cutting', () => {
    // Cut first, the kept text would end in `sk-live-se`, which no redactor recognizes.
    const message = `${'a'.repeat(MAX_FAILURE_MESSAGE_BYTES - 74)}sk-live-secret-1234${'b'.repeat(100)}`;
    const bounded = fullFailureMessage(message, redactor)!;
    expect(bounded).not.toContain('sk-live');
    expect(bounded).toContain('[REDACTED]');
  });
});
