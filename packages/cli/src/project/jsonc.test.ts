import { JsoncSyntaxError, parseJsonc, plainValue, propertyOf } from './jsonc';

describe('JSONC', () => {
  test('reads comments and trailing commas, with the offsets of every value', () => {
    const text = '// c\n{ "a": [1, "x", ], /* b */ "b": { "c": null, }, }';
    const root = parseJsonc(text);
    expect(plainValue(root)).toEqual({ a: [1, 'x'], b: { c: null } });
    const a = propertyOf(root, 'a')!.value;
    expect(text.slice(a.start, a.end)).toBe('[1, "x", ]');
  });

  test('a repeated key: the last one wins, as in JSON.parse', () => {
    expect(plainValue(propertyOf(parseJsonc('{"t": 1, "t": 2}'), 't')!.value)).toBe(2);
  });

  test('what is not JSONC throws with the offset', () => {
    expect(() => parseJsonc('{ "a": 1 "b": 2 }')).toThrow(new JsoncSyntaxError('expected "," or "}"', 9));
    expect(() => parseJsonc("{ 'a': 1 }")).toThrow('expected a property name in double quotes at offset 2');
    expect(() => parseJsonc('{} x')).toThrow('unexpected text after the value at offset 3');
    expect(() => parseJsonc('/* open')).toThrow('unterminated comment');
  });
});
