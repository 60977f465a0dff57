import { summarizeValue } from './summarizeValue';

describe('summarizeValue', () => {
  test('cuts long strings anywhere in the value and says how long they were; keeps the rest', () => {
    const value = { a: 'x'.repeat(10), b: [{ c: 'y'.repeat(50) }], n: 3, z: null };
    expect(summarizeValue(value, 20)).toEqual({
      a: 'x'.repeat(10),
      b: [{ c: `${'y'.repeat(20)}… [50 characters; m3 ui shows all]` }],
      n: 3,
      z: null,
    });
    expect(value.b[0]!.c).toHaveLength(50); // the input is not changed
  });
});
