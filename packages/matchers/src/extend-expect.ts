/**
 * Side-effect entry for `setupFilesAfterEnv`: registers the sf-m3 matchers on Jest's `expect`
 * (the global one, or `@jest/globals`' when globals are not injected).
 */
import './augment';
import { m3Matchers } from './matchers';

interface Extendable {
  extend(matchers: object): void;
}

function jestExpect(): Extendable {
  const global = (globalThis as { expect?: Extendable }).expect;
  if (global && typeof global.extend === 'function') return global;
  try {
    return (require('@jest/globals') as { expect: Extendable }).expect;
  } catch {
    throw new Error(
      '@sf-m3/matchers/extend-expect found no Jest expect: load it from setupFilesAfterEnv in a Jest project',
    );
  }
}

jestExpect().extend(m3Matchers);
