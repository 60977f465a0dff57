/** Longest failure message stored on an attempt. */
export const MAX_FAILURE_MESSAGE_LENGTH = 20_000;

// eslint-disable-next-line no-control-regex -- matching ANSI colour codes is the point
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

/**
 * Turns jest-circus test errors (an `Error`, or an `[error, asyncError]` pair) into one plain,
 * redacted and bounded message; `null` when there are none.
 */
export function formatFailureMessage(errors: readonly unknown[], redact: (text: string) => string): string | null {
  if (errors.length === 0) return null;
  const parts = errors.map((entry) => describeError(Array.isArray(entry) ? (entry[0] ?? entry[1]) : entry));
  const text = redact(parts.join('\n\n').replace(ANSI, ''));
  return text.length <= MAX_FAILURE_MESSAGE_LENGTH
    ? text
    : `${text.slice(0, MAX_FAILURE_MESSAGE_LENGTH)}… [truncated, ${text.length} characters]`;
}

function describeError(error: unknown): string {
  if (error instanceof Error || (typeof error === 'object' && error !== null && 'message' in error)) {
    const { name, message } = error as { name?: unknown; message?: unknown };
    const text = typeof message === 'string' ? message : String(message);
    return typeof name === 'string' && name !== 'Error' && !text.startsWith(name) ? `${name}: ${text}` : text;
  }
  return String(error);
}
