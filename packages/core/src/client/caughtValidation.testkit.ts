import { ModelValidationError } from '../errors';

/** The `ModelValidationError` that `fn` throws; anything else (or nothing) fails the test. */
export function caught(fn: () => void): ModelValidationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ModelValidationError) return error;
    throw error;
  }
  throw new Error('expected a ModelValidationError');
}
