import * as vm from 'node:vm';
import { randomUUID } from 'node:crypto';

const { installModuleCodeCache } = require('./moduleCodeCache') as { installModuleCodeCache(): void };

type Compiled = ((...args: unknown[]) => unknown) & { cachedDataRejected?: boolean };

function compile(code: string, filename: string): Compiled {
  return vm.compileFunction(code, ['a'], { filename }) as Compiled;
}

beforeAll(() => installModuleCodeCache());

test('a second compile of the same source under the same name gets V8’s code cache, and it is accepted', () => {
  const filename = `/virtual/${randomUUID()}.js`;
  const first = compile('return a + 1;', filename);
  expect(first.cachedDataRejected).toBeUndefined();
  const second = compile('return a + 1;', filename);
  expect(second.cachedDataRejected).toBe(false);
  expect(second(41)).toBe(42);
});

test('a changed source under the same name compiles afresh: never a stale function', () => {
  const filename = `/virtual/${randomUUID()}.js`;
  compile('return a + 1;', filename);
  const changed = compile('return a * 2;', filename);
  expect(changed.cachedDataRejected).toBeUndefined();
  expect(changed(21)).toBe(42);
  expect(compile('return a * 2;', filename).cachedDataRejected).toBe(false);
});

test('a caller passing its own cachedData is left alone, and installing twice wraps once', () => {
  const filename = `/virtual/${randomUUID()}.js`;
  const produced = vm.compileFunction('return a;', ['a'], { filename, produceCachedData: true }) as Compiled & {
    cachedData?: Buffer;
  };
  const withOwn = vm.compileFunction('return a;', ['a'], {
    filename,
    cachedData: Buffer.from('not a cache'),
  }) as Compiled;
  expect(withOwn.cachedDataRejected).toBe(true);
  expect(produced('x')).toBe('x');
  const wrapped = vm.compileFunction;
  installModuleCodeCache();
  expect(vm.compileFunction).toBe(wrapped);
});
