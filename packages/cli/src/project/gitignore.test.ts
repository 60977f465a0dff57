import { appendIgnoreEntry, ignoresM3 } from './gitignore';

describe('.gitignore', () => {
  test('the spellings that already ignore .m3/ count; a later negation un-ignores it', () => {
    expect(ignoresM3('node_modules/\n.m3/\n')).toBe(true);
    expect(ignoresM3('/.m3\n')).toBe(true);
    expect(ignoresM3('  .m3/**  \r\n')).toBe(true);
    expect(ignoresM3('.m3/\n!.m3/\n')).toBe(false);
    expect(ignoresM3('# .m3/\n.m3-old/\nsrc/.m3/\n')).toBe(false);
    expect(ignoresM3('')).toBe(false);
  });

  test('appends on its own line, keeping the line ending the file uses', () => {
    expect(appendIgnoreEntry('node_modules/\n')).toBe('node_modules/\n.m3/\n');
    expect(appendIgnoreEntry('node_modules/')).toBe('node_modules/\n.m3/\n');
    expect(appendIgnoreEntry('dist\r\nnode_modules\r\n')).toBe('dist\r\nnode_modules\r\n.m3/\r\n');
    expect(appendIgnoreEntry('')).toBe('.m3/\n');
  });
});
