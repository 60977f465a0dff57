import type { CassetteBookOptions, CassetteBookReport } from '@sf-m3/core';

/** What the environment asks the sandbox for when it opens a test file's cassette book. */
export type CassetteBookRequest = CassetteBookOptions;

/** What a test file's book reported at its end (read structurally: it comes from the sandbox). */
export type BridgedCassetteReport = CassetteBookReport;

/**
 * The part of a `CassetteBook` (contract §24) the environment drives. The book is built from the
 * sandbox's `@sf-m3/core` so the scopes it hands the sandbox's kits, and the `CassetteMissError`s
 * their channels raise, are the classes the test imports; the environment only passes the scopes on.
 */
export interface BridgedCassetteBook {
  /** One test attempt's scope; opaque here, given to the kit as `MCPTestKitOptions.cassettes`. */
  scope(testName: string, options?: { readonly servers?: boolean }): unknown;
  finish(options: { readonly fullRun: boolean }): Promise<BridgedCassetteReport>;
}
