import { ModelValidationError } from '../errors/M3Error';

/** Longest suite name a store accepts. */
export const MAX_SUITE_NAME_LENGTH = 256;

/** Trims a suite name and checks it is 1..256 characters; throws `ModelValidationError`. */
export function normalizeSuiteName(name: unknown): string {
  if (typeof name !== 'string') {
    throw new ModelValidationError('suite name must be a string', { label: 'suiteName' });
  }
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_SUITE_NAME_LENGTH) {
    throw new ModelValidationError(
      `suite name must be 1 to ${MAX_SUITE_NAME_LENGTH} characters after trimming, got ${trimmed.length}`,
      { label: 'suiteName', length: trimmed.length },
    );
  }
  return trimmed;
}

/**
 * An ISO-8601 instant in the canonical `toISOString()` form, so stored times compare as strings.
 * Throws `ModelValidationError` naming `field` when `value` is not a timestamp.
 */
export function canonicalInstant(value: string, field: string): string {
  const date = typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) {
    throw new ModelValidationError(`${field} must be an ISO-8601 timestamp`, { field });
  }
  return date.toISOString();
}

/** Throws `ModelValidationError` unless `value` is a non-empty string. */
export function requireId(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 512) {
    throw new ModelValidationError(`${field} must be a non-empty string of at most 512 characters`, { field });
  }
  return value;
}

/** Throws `ModelValidationError` unless `limit` is a whole number >= 0 (a judge budget, `reserveJudgeRequest`). */
export function requireJudgeRequestLimit(limit: unknown): number {
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0) {
    throw new ModelValidationError(
      `the judge request limit must be a whole number of requests >= 0, got ${String(limit)}`,
      { field: 'limit' },
    );
  }
  return limit;
}
