import { UsageError } from '../options/UsageError';
import { jestShard } from './jestShard';

test('reads --shard=i/N and --shard i/N the way Jest does', () => {
  expect(jestShard(['--shard=2/3'])).toEqual({ index: 2, count: 3 });
  expect(jestShard(['--ci', '--shard', '3/3', '--silent'])).toEqual({ index: 3, count: 3 });
  expect(jestShard(['--ci'])).toBeNull();
  expect(jestShard(['--shard=1/1'])).toBeNull(); // one shard is an unsharded run
});

test('rejects a shard Jest would reject, naming the flag and the form', () => {
  for (const bad of ['0/3', '4/3', 'two/3', '1-3']) {
    expect(() => jestShard([`--shard=${bad}`])).toThrow(UsageError);
    expect(() => jestShard([`--shard=${bad}`])).toThrow(
      /must be INDEX\/COUNT with 1 <= INDEX <= COUNT, e\.g\. --shard=2\/3/,
    );
  }
});
