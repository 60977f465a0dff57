import { ModelValidationError } from '@sf-m3/core';
import type { DescribeM3, DescribeM3Function, M3SuiteOptions } from './runtimeBridge';
import { normalizeSuiteName } from './suiteName';

/** The Jest `describe` parts `describe.m3` builds on. */
export interface JestDescribeLike {
  (name: string, fn: () => void): void;
  skip(name: string, fn: () => void): void;
  only(name: string, fn: () => void): void;
}

/** A suite declared by `describe.m3`, waiting for Jest to create its describe block. */
export interface DeclaredSuite {
  readonly name: string;
  readonly options: M3SuiteOptions;
}

/**
 * Builds `describe.m3` (with `.skip` / `.only`) on top of Jest's `describe`. Each call validates
 * the suite, hands it to `declare` right before Jest's `start_describe_definition` event (where the
 * environment binds it to the new describe block), and titles the block with the trimmed name.
 */
export function createDescribeM3(
  describe: JestDescribeLike,
  declare: (suite: DeclaredSuite | null) => void,
): DescribeM3 {
  const variant =
    (define: (name: string, fn: () => void) => void): DescribeM3Function =>
    (suiteName: string, optionsOrFn: M3SuiteOptions | (() => void), maybeFn?: () => void): void => {
      const name = normalizeSuiteName(suiteName);
      const [options, fn] = typeof optionsOrFn === 'function' ? [{}, optionsOrFn] : [optionsOrFn, maybeFn];
      if (typeof fn !== 'function') {
        throw new ModelValidationError(`describe.m3('${name}', ...) needs a function that declares the suite's tests`);
      }
      declare({ name, options: validateSuiteOptions(name, options) });
      try {
        define(name, fn);
      } finally {
        declare(null);
      }
    };
  // `fuzz` is added by the environment (describeM3Fuzz.ts), which owns the fuzzer's runtime.
  const m3 = variant((name, fn) => describe(name, fn)) as DescribeM3;
  Object.defineProperties(m3, {
    skip: { value: variant((name, fn) => describe.skip(name, fn)), enumerable: true },
    only: { value: variant((name, fn) => describe.only(name, fn)), enumerable: true },
  });
  return m3;
}

/** Checks the options form of `describe.m3`; unknown keys are refused so typos surface. */
export function validateSuiteOptions(name: string, options: unknown): M3SuiteOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ModelValidationError(`describe.m3('${name}', options, fn): options must be an object like { trials: 3 }`);
  }
  const known = new Set(['agents', 'servers', 'trials']);
  const unknown = Object.keys(options).filter((key) => !known.has(key));
  if (unknown.length > 0) {
    throw new ModelValidationError(
      `describe.m3('${name}', options, fn): unknown option ${unknown.join(', ')}; use agents, servers or trials`,
      { unknown },
    );
  }
  const { agents, servers, trials } = options as Record<string, unknown>;
  for (const [key, value] of [
    ['agents', agents],
    ['servers', servers],
  ] as const) {
    if (value !== undefined && !Array.isArray(value)) {
      throw new ModelValidationError(`describe.m3('${name}', options, fn): ${key} must be an array`);
    }
  }
  if (trials !== undefined && (typeof trials !== 'number' || !Number.isInteger(trials) || trials < 1)) {
    throw new ModelValidationError(`describe.m3('${name}', options, fn): trials must be a positive integer`);
  }
  return options as M3SuiteOptions;
}
