import { cacheHintsOf } from './cacheHints';

describe('cacheHintsOf', () => {
  test('keeps ttlMs and cacheScope as sent', () => {
    expect(cacheHintsOf({ tools: [], ttlMs: 0, cacheScope: 'private' })).toEqual({ ttlMs: 0, cacheScope: 'private' });
  });

  test('leaves out what the server did not send or sent malformed (a 2025 result has neither)', () => {
    expect(cacheHintsOf({ tools: [] })).toEqual({});
    expect(cacheHintsOf({ ttlMs: '60', cacheScope: 7 })).toEqual({});
  });
});
