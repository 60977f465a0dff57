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

/** Deepest `cause`/`errors` nesting redacted in place; deeper links are cut (Jest prints them too). */
const MAX_ERROR_DEPTH = 8;

/**
 * Redacts a test's errors where Jest reads them (`test.errors`), so what Jest prints and hands its
 * reporters (message, stack, `cause`, `AggregateError.errors`, a matcher's result message) holds no
 * canary either: a thrown string is replaced, an `Error` rewritten, and one whose fields cannot be
 * written replaced by a redacted copy.
 */
export function redactTestErrors(errors: unknown[], redact: (text: string) => string): void {
  for (let i = 0; i < errors.length; i += 1) {
    const entry = errors[i];
    if (Array.isArray(entry)) {
      errors[i] = entry.map((part: unknown) => redactError(part, redact, 0));
    } else {
      errors[i] = redactError(entry, redact, 0);
    }
  }
}

function redactError(error: unknown, redact: (text: string) => string, depth: number): unknown {
  if (typeof error === 'string') return redact(error);
  if (typeof error !== 'object' || error === null) return error;
  const fields = error as {
    message?: unknown;
    stack?: unknown;
    cause?: unknown;
    errors?: unknown;
    matcherResult?: unknown;
  };
  const rewrite = (apply: () => void): boolean => {
    try {
      apply();
      return true;
    } catch {
      return false;
    }
  };
  const ok = [
    typeof fields.message !== 'string' || rewrite(() => (fields.message = redact(fields.message as string))),
    typeof fields.stack !== 'string' || rewrite(() => (fields.stack = redact(fields.stack as string))),
    fields.cause === undefined ||
      rewrite(
        () => (fields.cause = depth < MAX_ERROR_DEPTH ? redactError(fields.cause, redact, depth + 1) : undefined),
      ),
    !Array.isArray(fields.errors) ||
      rewrite(() => {
        fields.errors =
          depth < MAX_ERROR_DEPTH ? (fields.errors as unknown[]).map((e) => redactError(e, redact, depth + 1)) : [];
      }),
    !isMatcherResult(fields.matcherResult) ||
      rewrite(() => redactMatcherResult(fields.matcherResult as MatcherResult, redact)),
  ].every(Boolean);
  if (ok) return error;
  const copy = new Error(redact(typeof fields.message === 'string' ? fields.message : String(error)));
  copy.stack = redact(typeof fields.stack === 'string' ? fields.stack : copy.message);
  return copy;
}

interface MatcherResult {
  message?: unknown;
  actual?: unknown;
  expected?: unknown;
}

function isMatcherResult(value: unknown): value is MatcherResult {
  return typeof value === 'object' && value !== null;
}

/** Jest's JSON reporters serialize a matcher's result: its message and string values are redacted too. */
function redactMatcherResult(result: MatcherResult, redact: (text: string) => string): void {
  if (typeof result.message === 'string') result.message = redact(result.message);
  if (typeof result.actual === 'string') result.actual = redact(result.actual);
  if (typeof result.expected === 'string') result.expected = redact(result.expected);
}
