/**
 * Merges {@link M3Matchers} into Jest's matcher types: the `jest` namespace of `@types/jest`
 * (global `expect`) and the `expect` package that `@jest/globals` and `@jest/expect` re-export.
 */
import type { M3Matchers } from './M3Matchers';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars
    interface Matchers<R, T = {}> extends M3Matchers<R> {}
  }
}

declare module 'expect' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars
  interface Matchers<R extends void | Promise<void>, T = unknown> extends M3Matchers<R> {}
}

export {};
