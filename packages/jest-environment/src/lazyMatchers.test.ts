import { m3Matchers } from '@sf-m3/matchers';
import { lazyMatchers, M3_MATCHER_NAMES } from './lazyMatchers';
import type { MatcherFn } from './lazyMatchers';

describe('lazyMatchers', () => {
  test('lists exactly the matchers @sf-m3/matchers exports', () => {
    expect([...M3_MATCHER_NAMES].sort()).toEqual(Object.keys(m3Matchers).sort());
  });

  test('loads on first call and forwards arguments and `this`', () => {
    const real = jest.fn(function (this: unknown, ...args: unknown[]) {
      return { pass: true, message: () => '', self: this, args };
    });
    const load = jest.fn(() => ({ toHaveText: real }) as unknown as Record<string, MatcherFn>);
    const matchers = lazyMatchers(load);
    expect(load).not.toHaveBeenCalled();
    const context = { isNot: false };
    const result = matchers.toHaveText.call(context, 'received', 'expected') as { self: unknown; args: unknown[] };
    matchers.toHaveText.call(context, 'again');
    expect(load).toHaveBeenCalledTimes(1);
    expect(result.self).toBe(context);
    expect(result.args).toEqual(['received', 'expected']);
  });

  test('the lazy matchers really work inside expect', () => {
    expect.extend(lazyMatchers(() => m3Matchers as unknown as Record<string, MatcherFn>) as jest.ExpectExtendMap);
    (expect('shipping quote') as unknown as { toHaveTextContaining(s: string): void }).toHaveTextContaining('quote');
  });
});
