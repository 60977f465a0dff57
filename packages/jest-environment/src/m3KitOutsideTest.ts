import type { M3Runtime } from './runtimeBridge';

/** contract §11: what touching `m3Kit` outside a test body, `beforeEach` or `afterEach` says. */
export const M3KIT_OUTSIDE_TEST =
  'm3Kit exists only inside a test (its body, beforeEach or afterEach), not at module scope, in beforeAll ' +
  'or in afterAll: for setup shared across tests use new MCPTestKit() (and close it in afterAll)';

/** The `M3Error` code of that misuse. */
export const M3KIT_OUTSIDE_TEST_CODE = 'm3kit_outside_test';

/**
 * The error for `m3Kit` touched outside a test. It is an `M3Error` of the sandbox's `@sf-m3/core`
 * (built by the setup file, so `instanceof M3Error` holds in the test file); without the setup
 * file, a plain `Error` with the same message.
 */
export function m3KitOutsideTestError(runtime: M3Runtime): Error {
  return runtime.createError?.(M3KIT_OUTSIDE_TEST_CODE, M3KIT_OUTSIDE_TEST) ?? new Error(M3KIT_OUTSIDE_TEST);
}
