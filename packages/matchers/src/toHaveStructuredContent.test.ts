import { m3Matchers } from './index';
import { EXEC_ID, failureOf } from './matchers.testkit';

expect.extend(m3Matchers);

const result = {
  content: [],
  structuredContent: { amount: 9, currency: 'USD', lines: [{ sku: 'a', qty: 1 }] },
  isError: false,
  executionId: EXEC_ID,
  tool: 'quote',
  server: 'shop',
};

describe('toHaveStructuredContent', () => {
  test('deep equality by default', () => {
    expect(result).toHaveStructuredContent({ amount: 9, currency: 'USD', lines: [{ sku: 'a', qty: 1 }] });
    expect(result).not.toHaveStructuredContent({ amount: 9 });
    expect(result).not.toHaveStructuredContent({ amount: '9', currency: 'USD', lines: [{ sku: 'a', qty: 1 }] });
  });
  test('partial: true allows extra keys at every level', () => {
    expect(result).toHaveStructuredContent({ amount: 9, lines: [{ sku: 'a' }] }, { partial: true });
    expect(result).not.toHaveStructuredContent({ amount: 10 }, { partial: true });
  });
  test('asymmetric matchers work', () => {
    expect(result).toHaveStructuredContent({ amount: expect.any(Number) }, { partial: true });
  });
  test('a result without structuredContent fails in the positive direction', () => {
    const { structuredContent: _drop, ...plain } = result;
    expect(plain).not.toHaveStructuredContent({});
    expect(failureOf(() => expect(plain).toHaveStructuredContent({}))).toContain('the result has no structuredContent');
  });
  test('failure messages', () => {
    expect(
      failureOf(() => expect(result).toHaveStructuredContent({ amount: 10, currency: 'USD', lines: [] })),
    ).toMatchSnapshot();
    expect(
      failureOf(() => expect(result).not.toHaveStructuredContent({ amount: 9 }, { partial: true })),
    ).toMatchSnapshot();
  });
  test('usage errors', () => {
    expect(() => expect('x').toHaveStructuredContent({})).toThrow('must be a tool result');
    expect(() => expect(result).toHaveStructuredContent({}, { partiall: true } as never)).toThrow('options must be');
  });
});
