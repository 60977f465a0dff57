import { MAX_SUITE_NAME_LENGTH, ModelValidationError } from '@sf-m3/core/internal';

/** Longest suite name contract §1 allows, after trimming: the store's own limit, so the two cannot drift. */
export { MAX_SUITE_NAME_LENGTH };

/**
 * Trims a suite name and checks it is 1–256 characters; throws `ModelValidationError` otherwise.
 * The store's `normalizeSuiteName` applies the same rule when the suite is registered; this one
 * runs first, at `describe.m3`, with messages that name `describe.m3`.
 */
export function normalizeSuiteName(name: unknown): string {
  if (typeof name !== 'string') {
    throw new ModelValidationError(`describe.m3 needs a suite name string as its first argument, got ${typeof name}`);
  }
  const trimmed = name.trim();
  if (trimmed.length === 0) {
    throw new ModelValidationError("describe.m3 needs a non-empty suite name: describe.m3('checkout', () => { ... })");
  }
  if (trimmed.length > MAX_SUITE_NAME_LENGTH) {
    throw new ModelValidationError(
      `describe.m3 suite name is ${trimmed.length} characters; use at most ${MAX_SUITE_NAME_LENGTH}`,
      { length: trimmed.length, max: MAX_SUITE_NAME_LENGTH },
    );
  }
  return trimmed;
}
