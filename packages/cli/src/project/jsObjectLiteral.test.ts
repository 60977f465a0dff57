import { exportedObjectStart, maskCode, readExportedObject, stringLiteralValue } from './jsObjectLiteral';

describe('reading the exported object of a config', () => {
  test('comments, strings, templates and regular expressions are blanked to the same length', () => {
    const text = "a = '}' + `{` /* { */ + /[{]/ // }\nb = 1 / 2 / 3";
    const masked = maskCode(text);
    expect(masked).toHaveLength(text.length);
    expect(masked).not.toMatch(/[{}]/);
    expect(masked.split('\n')[1]).toBe('b = 1 / 2 / 3');
  });

  test('finds module.exports, export default and an exported const', () => {
    expect(exportedObjectStart(maskCode('module.exports = {}'))).toBe(17);
    expect(exportedObjectStart(maskCode('const c = { a: 1 };\nexport default c satisfies Config;'))).toBe(10);
    expect(exportedObjectStart(maskCode('export default defineConfig({})'))).toBe(
      'it does not export an object literal (a function or a call, perhaps)',
    );
    expect(exportedObjectStart(maskCode('const a = 1;'))).toBe('it has no `module.exports =` or `export default`');
  });

  test('lists top-level keys only, with spreads, shorthands and quoted keys', () => {
    const object = readExportedObject(
      "module.exports = { a: { preset: 'x' }, ...b, c, 'd-e': [1, 2], f() { return 1; } };",
    );
    if (typeof object === 'string') throw new Error(object);
    expect(object.properties.map((p) => [p.key, p.spread])).toEqual([
      ['a', false],
      [null, true],
      ['c', false],
      ['d-e', false],
      ['f', false],
    ]);
    expect(object.properties[3]!.valueText).toBe('[1, 2]');
  });

  test('string literal values', () => {
    expect(stringLiteralValue(" 'sf-m3' ")).toBe('sf-m3');
    expect(stringLiteralValue('`sf-${x}`')).toBeNull();
    expect(stringLiteralValue('path.join(a)')).toBeNull();
  });
});
