import type { Redactor } from './Redactor';

/**
 * An error to attach as `cause` with its message and stack redacted. Jest prints an error's cause,
 * and third-party errors (the SDK's, a server factory's) may quote secrets verbatim; their own
 * `cause` chain is dropped.
 */
export function redactedCause(error: unknown, redactor: Redactor): Error {
  const original = error instanceof Error ? error : new Error(String(error));
  const cause = new Error(redactor.redactText(original.message));
  cause.name = original.name;
  if (original.stack !== undefined) cause.stack = redactor.redactText(original.stack);
  return cause;
}
