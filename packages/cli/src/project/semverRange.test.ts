import { parseVersion, satisfies } from './semverRange';

describe('satisfies', () => {
  test.each([
    ['30.5.2', '^29.0.0 || ^30.0.0', true],
    ['28.1.0', '^29.0.0 || ^30.0.0', false],
    ['5.9.3', '>=4.3 <7', true],
    ['7.0.0', '>=4.3 <7', false],
    ['6.0.2', '>=4.3 <6', false],
    ['v20.20.2', '>=20.19', true],
    ['v20.18.9', '>=20.19', false],
    ['22.1.0', '^18.14.0 || ^20.0.0 || ^22.0.0 || >=24.0.0', true],
    ['23.0.0', '^18.14.0 || ^20.0.0 || ^22.0.0 || >=24.0.0', false],
    ['0.2.5', '^0.2.3', true],
    ['0.3.0', '^0.2.3', false],
    ['0.0.4', '^0.0.3', false],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['1.9.0', '1.x', true],
    ['2.0.0', '1.x', false],
    ['2.3.9', '1.2.3 - 2.3', true],
    ['2.4.0', '1.2.3 - 2.3', false],
    ['9.9.9', '*', true],
    ['1.2.4', '>1.2.3', true],
    ['1.2.3', '>1.2.3', false],
    ['1.2.3', '1.2.3', true],
    ['1.2.4', '=1.2.3', false],
    ['12.0.0', '12.x', true],
    ['1.3.0', '<=1.2', false],
    ['1.2.7', '<=1.2', true],
    ['1.2.0', '>= 1.2.0 < 2', true],
  ])('%s in %s is %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  test('a prerelease only matches a range that names a prerelease of the same version', () => {
    expect(satisfies('30.0.0-alpha.3', '^30.0.0')).toBe(false);
    expect(satisfies('30.0.0-alpha.3', '>=30.0.0-alpha.1')).toBe(true);
    expect(satisfies('7.0.0-beta', '>=7.0.0-alpha <8')).toBe(true);
  });

  test('unreadable versions and ranges give null, not a guess', () => {
    expect(satisfies('latest', '^1.0.0')).toBeNull();
    expect(satisfies('1.0.0', 'workspace:*')).toBeNull();
    expect(parseVersion('1.2')).toBeNull();
    expect(parseVersion('v1.2.3')?.parts).toEqual([1, 2, 3]);
  });
});
