/**
 * What test files import (through `sf-m3`) to use sf-m3 without Jest's injected globals
 * (`injectGlobals: false`): `describeM3` and `m3Kit`. Both read the environment's runtime object
 * from the sandbox global, so this module stays light and realm-agnostic.
 */
import type { MCPTestKit } from '@sf-m3/core';
import { m3KitOutsideTestError } from './m3KitOutsideTest';
import { runtimeOf } from './runtimeBridge';
import type { DescribeM3, DescribeM3Function, M3SuiteOptions } from './runtimeBridge';
import type { TestM3, TestM3Function } from './testM3';

const NOT_IN_ENVIRONMENT =
  "sf-m3 helpers need the sf-m3 test environment: set preset: 'sf-m3' (or testEnvironment: '@sf-m3/jest-environment') in jest.config.js";

function environmentDescribe(): DescribeM3 {
  const describeM3 = runtimeOf(globalThis).describeM3;
  if (describeM3 === undefined) throw new Error(NOT_IN_ENVIRONMENT);
  return describeM3;
}

function variant(pick: (d: DescribeM3) => DescribeM3Function): DescribeM3Function {
  return ((suiteName: string, optionsOrFn: M3SuiteOptions | (() => void), fn?: () => void) =>
    fn === undefined
      ? pick(environmentDescribe())(suiteName, optionsOrFn as () => void)
      : pick(environmentDescribe())(suiteName, optionsOrFn as M3SuiteOptions, fn)) as DescribeM3Function;
}

/**
 * `describe.m3` as an import: `describeM3('shipping', () => { ... })`, with `.skip`, `.only` and
 * `.fuzz(server, options)`.
 */
export const describeM3: DescribeM3 = Object.assign(
  variant((d) => d),
  {
    skip: variant((d) => d.skip),
    only: variant((d) => d.only),
    fuzz: ((server, options) => environmentDescribe().fuzz(server, options)) as DescribeM3['fuzz'],
  },
);

function testVariant(pick: (t: TestM3) => TestM3Function): TestM3Function {
  return (name, fn, timeout) => {
    const testM3 = runtimeOf(globalThis).testM3;
    if (testM3 === undefined) throw new Error(NOT_IN_ENVIRONMENT);
    pick(testM3)(name, fn, timeout);
  };
}

/** `test.m3` as an import: one Jest test per selected server × agent × trial, sharing one case id. */
export const testM3: TestM3 = Object.assign(
  testVariant((t) => t),
  { skip: testVariant((t) => t.skip), only: testVariant((t) => t.only) },
);

/**
 * The kit of the test running now; throws outside a test (an `M3Error`, contract §11) or outside the
 * sf-m3 environment.
 */
export function getM3Kit(): MCPTestKit {
  const runtime = runtimeOf(globalThis);
  const current = runtime.currentKit;
  if (current === undefined) throw new Error(NOT_IN_ENVIRONMENT);
  const kit = current();
  if (kit === undefined) throw m3KitOutsideTestError(runtime);
  return kit as unknown as MCPTestKit;
}

/**
 * The current test's kit as an importable value: every property read goes to the kit of the test
 * running at that moment (`await m3Kit.direct(server).connect()`).
 */
export const m3Kit: MCPTestKit = new Proxy({} as MCPTestKit, {
  get(_target, property) {
    const kit = getM3Kit() as unknown as Record<PropertyKey, unknown>;
    const value = kit[property];
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(kit) : value;
  },
  has(_target, property) {
    return property in (getM3Kit() as object);
  },
});
