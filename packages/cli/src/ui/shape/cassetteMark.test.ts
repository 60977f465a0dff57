import { cassetteMark } from './cassetteMark';

describe('cassetteMark', () => {
  test('marks replayed, recorded and mixed executions, each with what it means', () => {
    expect(cassetteMark({ metadata: { cassette: 'replayed' } })).toEqual({
      use: 'replayed',
      title: expect.stringContaining('no model was called in this run'),
    });
    expect(cassetteMark({ metadata: { cassette: 'recorded' } })?.use).toBe('recorded');
    expect(cassetteMark({ metadata: { cassette: 'mixed' } })?.use).toBe('mixed');
  });

  test('marks nothing without a cassette label or with an unknown value', () => {
    expect(cassetteMark({ metadata: {} })).toBeNull();
    expect(cassetteMark({ metadata: { cassette: 'off' } })).toBeNull();
    expect(cassetteMark({ metadata: { trial: '1' } })).toBeNull();
  });
});
