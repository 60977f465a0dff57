// Executions in the static report are embedded summarized: every string longer than `maxChars` is
// cut, saying how long it was, so a trace of kilobyte tool results weighs a few KB (a failed one
// keeps more of each value than a passing one). The live viewer (`m3 ui`) serves the whole value.

/** Characters kept of each long string in a summarized passing execution. */
export const SUMMARY_STRING_CHARS = 160;
/** Characters kept of each long string in a failed execution (the start of a result or error says why). */
export const FAILED_STRING_CHARS = 1000;

/** `value` with every string longer than `maxChars` cut and marked; the structure is unchanged. */
export function summarizeValue<T>(value: T, maxChars = SUMMARY_STRING_CHARS): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      return v.length > maxChars ? `${v.slice(0, maxChars)}… [${v.length} characters; m3 ui shows all]` : v;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, inner]) => [k, walk(inner)]));
    }
    return v;
  };
  return walk(value) as T;
}
