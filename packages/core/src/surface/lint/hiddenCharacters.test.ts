import { findHiddenRuns, hiddenKind } from './hiddenCharacters';

describe('hidden characters', () => {
  test.each([
    ['\u200B', 'zero-width'],
    ['\uFEFF', 'zero-width'],
    ['\u202E', 'bidirectional control'],
    ['\u2067', 'bidirectional control'],
    ['\u{E0041}', 'tag'],
    ['\uFE01', 'variation selector'],
    ['\u{E0100}', 'variation selector'],
    ['\u3164', 'blank letter'],
    ['\u2800', 'blank letter'],
    ['\u0007', 'control'],
    ['\u00AD', 'format'],
    ['\uE000', 'private use'],
  ])('%j is %s', (ch, kind) => {
    expect(hiddenKind(`a${ch}b`, 1)).toBe(kind);
  });

  test.each([['\t'], ['\n'], ['\r'], ['é'], ['\u00A0'], ['\uFE0F']])('%j is allowed', (ch) => {
    expect(hiddenKind(`a${ch}b`, 1)).toBeNull();
  });

  test('a zero-width joiner inside an emoji sequence is allowed, outside one it is not', () => {
    const family = '👨\u200D👩\u200D👧';
    expect(findHiddenRuns(family)).toEqual([]);
    expect(findHiddenRuns('❤️\u200D🔥')).toEqual([]);
    expect(findHiddenRuns('a\u200Db')).toHaveLength(1);
  });

  test('adjacent invisible characters make one run, with their kinds and the ASCII the tag characters spell', () => {
    const tag = [...'hi'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    expect(findHiddenRuns(`x\u200B${tag}y\u202Ez`)).toEqual([
      { start: 1, end: 6, kinds: ['zero-width', 'tag'], tagText: 'hi' },
      { start: 7, end: 8, kinds: ['bidirectional control'], tagText: '' },
    ]);
  });
});
