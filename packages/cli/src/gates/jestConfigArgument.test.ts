import { jestConfigArgument } from './jestConfigArgument';

describe('jestConfigArgument', () => {
  test.each<[string[], string | null]>([
    [['--config', 'a.js'], '/p/a.js'],
    [['--config=/abs/b.mjs'], '/abs/b.mjs'],
    [['-c', 'c.json', '--ci'], '/p/c.json'],
    [['--config', '{"testEnvironmentOptions":{}}'], '{"testEnvironmentOptions":{}}'],
    [['--ci'], null],
    [[], null],
  ])('%j', (args, configArg) => {
    expect(jestConfigArgument(args, '/p')).toBe(configArg);
  });
});
