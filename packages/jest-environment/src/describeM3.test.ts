import { ModelValidationError } from '@sf-m3/core';
import { createDescribeM3 } from './describeM3';
import type { DeclaredSuite, JestDescribeLike } from './describeM3';

function fakeDescribe(protocolsOverride: readonly string[] | null = null) {
  const calls: Array<{ mode: string; name: string; declared: DeclaredSuite | null }> = [];
  let declared: DeclaredSuite | null = null;
  const record = (mode: string) => (name: string, fn: () => void) => {
    calls.push({ mode, name, declared });
    fn();
  };
  const describe = Object.assign(record('normal'), { skip: record('skip'), only: record('only') }) as JestDescribeLike;
  const m3 = createDescribeM3(
    describe,
    (suite) => {
      declared = suite;
    },
    protocolsOverride,
  );
  return { m3, calls, declared: () => declared };
}

describe('describe.m3', () => {
  test('declares the trimmed suite right before Jest defines the block, then clears it', () => {
    const { m3, calls, declared } = fakeDescribe();
    const body = jest.fn();
    m3('  shipping  ', body);
    expect(calls).toEqual([{ mode: 'normal', name: 'shipping', declared: { name: 'shipping', options: {} } }]);
    expect(body).toHaveBeenCalledTimes(1);
    expect(declared()).toBeNull();
  });

  test('takes options and has .skip and .only', () => {
    const { m3, calls } = fakeDescribe();
    m3.skip('a', { trials: 3 }, () => undefined);
    m3.only('b', () => undefined);
    expect(calls.map((c) => [c.mode, c.name, c.declared?.options])).toEqual([
      ['skip', 'a', { trials: 3 }],
      ['only', 'b', {}],
    ]);
  });

  test.each([
    ['', /non-empty suite name/],
    ['   ', /non-empty suite name/],
    ['x'.repeat(257), /257 characters; use at most 256/],
  ])('refuses suite name %j', (name, message) => {
    const { m3 } = fakeDescribe();
    expect(() => m3(name, () => undefined)).toThrow(message);
    expect(() => m3(name, () => undefined)).toThrow(ModelValidationError);
  });

  test('accepts a 256-character name', () => {
    const { m3, calls } = fakeDescribe();
    m3('y'.repeat(256), () => undefined);
    expect(calls[0].name).toHaveLength(256);
  });

  test('refuses bad options and a missing body', () => {
    const { m3 } = fakeDescribe();
    expect(() => m3('s', { trials: 0 }, () => undefined)).toThrow('trials must be a positive integer');
    expect(() => m3('s', { servers: 'x' } as never, () => undefined)).toThrow('servers must be an array');
    expect(() => m3('s', { trails: 2 } as never, () => undefined)).toThrow('unknown option trails');
    expect(() => (m3 as unknown as (n: string) => void)('s')).toThrow('needs a function');
  });

  test('takes cassettes: { servers, mode } (contract §24) and refuses what it does not know', () => {
    const { m3, calls } = fakeDescribe();
    m3('s', { cassettes: { servers: true, mode: 'replay' } }, () => undefined);
    expect(calls[0]!.declared?.options.cassettes).toEqual({ servers: true, mode: 'replay' });
    expect(() => m3('s', { cassettes: { mode: 'live' } } as never, () => undefined)).toThrow(
      'describe.m3(\'s\', { cassettes }, fn): cassettes.mode is "live", which is not a cassette mode; use one of auto, record, replay, off',
    );
    expect(() => m3('s', { cassettes: { servers: true, record: true } } as never, () => undefined)).toThrow(
      'unknown cassettes option record; use servers or mode',
    );
    expect(() => m3('s', { cassette: {} } as never, () => undefined)).toThrow(
      'unknown option cassette; use agents, servers, trials, protocols or cassettes',
    );
  });

  test('clears the declared suite even when the body throws', () => {
    const { m3, declared } = fakeDescribe();
    expect(() =>
      m3('s', () => {
        throw new Error('bad body');
      }),
    ).toThrow('bad body');
    expect(declared()).toBeNull();
  });
});

describe('describe.m3 with protocols (contract §23)', () => {
  const protocols = ['2025-11-25', '2026-07-28'];

  test('runs the body once per revision, each in a [protocol=REV] block declared with its revision', () => {
    const { m3, calls, declared } = fakeDescribe();
    const body = jest.fn();
    m3.only('eras', { protocols }, body);
    expect(body).toHaveBeenCalledTimes(2);
    expect(calls.map((c) => [c.mode, c.name, c.declared?.protocol])).toEqual([
      ['only', 'eras', undefined],
      ['normal', '[protocol=2025-11-25]', '2025-11-25'],
      ['normal', '[protocol=2026-07-28]', '2026-07-28'],
    ]);
    expect(calls[1]!.declared).toEqual({ name: 'eras', options: { protocols }, protocol: '2025-11-25' });
    expect(declared()).toBeNull();
  });

  test("m3 test --protocol replaces the suite's revisions, and gives suites without any one block each", () => {
    const { m3, calls } = fakeDescribe(['2026-07-28']);
    m3('eras', { protocols }, () => undefined);
    m3('plain', () => undefined);
    expect(calls.map((c) => [c.name, c.declared?.protocol])).toEqual([
      ['eras', undefined],
      ['[protocol=2026-07-28]', '2026-07-28'],
      ['plain', undefined],
      ['[protocol=2026-07-28]', '2026-07-28'],
    ]);
  });

  test.each([
    [[], /protocols must be a non-empty array/],
    ['2026-07-28', /protocols must be a non-empty array/],
    [['2026-07-28', 'auto'], /protocols lists "auto"; use revisions from '2026-07-28', '2025-11-25', '2025-06-18'/],
    [['2026-07-28', '2026-07-28'], /protocols lists a revision twice/],
  ])('refuses protocols %j', (value, message) => {
    const { m3 } = fakeDescribe();
    expect(() => m3('s', { protocols: value } as never, () => undefined)).toThrow(message);
  });

  test('refuses a bad --protocol override when a suite is declared', () => {
    const { m3 } = fakeDescribe(['2024-01-01']);
    expect(() => m3('s', () => undefined)).toThrow(/m3 test --protocol: protocols lists "2024-01-01"/);
  });
});
