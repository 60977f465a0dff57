import { appendEntries, indentUnit, lineIndent, prependEntry, type LiteralSpan } from './insertEntries';

/** The span of the one array literal in `text` whose elements are the numbers in it. */
function arraySpan(text: string): LiteralSpan {
  const start = text.indexOf('[');
  const entries = [...text.slice(start).matchAll(/\d+/g)].map((m) => ({
    start: start + m.index,
    end: start + m.index + m[0].length,
  }));
  return { start, end: text.lastIndexOf(']') + 1, entries };
}

describe('inserting entries into a literal', () => {
  test('one line: inline, with or without a trailing comma', () => {
    expect(appendEntries('[1, 2]', arraySpan('[1, 2]'), ['3'])).toBe('[1, 2, 3]');
    expect(appendEntries('[1, 2,]', arraySpan('[1, 2,]'), ['3'])).toBe('[1, 2, 3,]');
    expect(prependEntry('[1, 2]', arraySpan('[1, 2]'), '0')).toBe('[0, 1, 2]');
  });

  test('multi-line: one entry per line at the siblings’ indentation, a trailing comment left on its line', () => {
    const text = 'x = [\n    1,\n    2 // two\n];\n';
    expect(appendEntries(text, arraySpan(text), ['3', '4'])).toBe('x = [\n    1,\n    2, // two\n    3,\n    4\n];\n');
    expect(prependEntry(text, arraySpan(text), '0')).toBe('x = [\n    0,\n    1,\n    2 // two\n];\n');
  });

  test('empty literals', () => {
    expect(appendEntries('[]', arraySpan('[]'), ['1'])).toBe('[1]');
    expect(appendEntries('{\n  a: [\n  ]\n}', arraySpan('{\n  a: [\n  ]\n}'), ['1'])).toBe('{\n  a: [\n    1\n  ]\n}');
  });

  test('indentation helpers', () => {
    expect(lineIndent('a\n\t\tb', 5)).toBe('\t\t');
    expect(indentUnit('{\n    "a": 1\n}')).toBe('    ');
    expect(indentUnit('{}')).toBe('  ');
  });
});
