import type { M3MatcherName } from '@sf-m3/matchers';

/**
 * Every sf-m3 matcher name. The preset registers them under these names without loading the
 * matcher code (which pulls in all of `@sf-m3/core`), so a test file that never calls one pays
 * nothing; `lazyMatchers.test.ts` keeps this list equal to `m3Matchers`.
 */
export const M3_MATCHER_NAMES = [
  'toHaveText',
  'toHaveTextContaining',
  'toHaveTextMatching',
  'toHaveStructuredContent',
  'toHaveContent',
  'toBeToolError',
  'toHaveToolCall',
  'toHaveToolCalls',
  'toBeCompleted',
  'toHaveOutcome',
  'toHaveLifecycle',
  'toHaveError',
  'toHaveProtocolVersion',
  'toHaveTransport',
  'toHaveCapability',
  'toHaveTrace',
  'toHaveEvent',
  'toHaveDuration',
  'toSatisfyJudge',
  'toPassToolLint',
] as const satisfies readonly M3MatcherName[];

type Unlisted = Exclude<M3MatcherName, (typeof M3_MATCHER_NAMES)[number]>;
/** Fails to compile when a matcher is added to `m3Matchers` but not to the list above. */
export const ALL_MATCHERS_LISTED: [Unlisted] extends [never] ? true : never = true;

/** A matcher function as `expect.extend` takes it. */
export type MatcherFn = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Matchers for `expect.extend` that load the real ones on first call and forward to them with
 * Jest's matcher context (`this`) intact.
 */
export function lazyMatchers(load: () => Record<string, MatcherFn>): Record<string, MatcherFn> {
  let loaded: Record<string, MatcherFn> | undefined;
  const matchers: Record<string, MatcherFn> = {};
  for (const name of M3_MATCHER_NAMES) {
    matchers[name] = function (this: unknown, ...args: unknown[]) {
      loaded ??= load();
      return loaded[name].apply(this, args);
    };
  }
  return matchers;
}
