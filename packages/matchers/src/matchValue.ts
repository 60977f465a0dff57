/**
 * Argument and value matching shared by every matcher that compares data (contract §7, upstream
 * `_matches`). JavaScript semantics are explicit: `true` never equals `1`, object keys whose value
 * is `undefined` count as absent (as in JSON), and Jest asymmetric matchers (`expect.any(String)`,
 * `expect.stringMatching(...)`) and `RegExp` values work anywhere in an expectation.
 */

/** How two values are compared. */
export interface MatchOptions {
  /** Objects: expected keys must be present and match; extra actual keys are allowed. */
  readonly partial?: boolean;
  /** Arrays: each expected item consumes one matching actual item, in any order; nothing may remain. */
  readonly unordered?: boolean;
  /** Strings in the expectation are regular expressions that must match the whole actual string. */
  readonly regex?: boolean;
  /** Numbers (not booleans) match when `|actual - expected| <= tolerance`. */
  readonly tolerance?: number;
}

/** Marks a field a source did not observe; it never matches anything. */
export const UNAVAILABLE: unique symbol = Symbol('sf-m3.unavailable');
/** The type of {@link UNAVAILABLE}. */
export type Unavailable = typeof UNAVAILABLE;

interface AsymmetricMatcherLike {
  asymmetricMatch(other: unknown): boolean;
}

/** True for Jest asymmetric matchers such as `expect.any(String)`. */
export function isAsymmetricMatcher(value: unknown): value is AsymmetricMatcherLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function'
  );
}

/** True for plain data objects (not arrays, regexps, dates or class instances with behaviour). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (value instanceof RegExp || value instanceof Date) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null || isAnyObjectPrototype(proto);
}

// Objects built in another realm (a Jest vm context) have a different Object.prototype.
function isAnyObjectPrototype(proto: unknown): boolean {
  return typeof proto === 'object' && proto !== null && Object.getPrototypeOf(proto) === null;
}

function definedKeys(value: Record<string, unknown>): string[] {
  return Object.keys(value).filter((k) => value[k] !== undefined);
}

function isRegExp(value: unknown): value is RegExp {
  return Object.prototype.toString.call(value) === '[object RegExp]';
}

function fullMatch(pattern: string, actual: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`, 'u').test(actual);
  } catch {
    return new RegExp(`^(?:${pattern})$`).test(actual);
  }
}

/** True when `actual` matches `expected` under `options` (recursively). */
export function matchValue(actual: unknown, expected: unknown, options: MatchOptions = {}): boolean {
  if (actual === UNAVAILABLE || expected === UNAVAILABLE) return false;
  if (isAsymmetricMatcher(expected)) return expected.asymmetricMatch(actual);
  if (isRegExp(expected)) {
    if (typeof actual !== 'string') return false;
    expected.lastIndex = 0;
    return expected.test(actual);
  }
  if (
    options.tolerance !== undefined &&
    typeof actual === 'number' &&
    typeof expected === 'number' &&
    Number.isFinite(actual) &&
    Number.isFinite(expected)
  ) {
    return Math.abs(actual - expected) <= options.tolerance;
  }
  if (options.regex === true && typeof actual === 'string' && typeof expected === 'string') {
    return fullMatch(expected, actual);
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return false;
    return options.unordered === true
      ? matchUnordered(actual, expected, options)
      : actual.length === expected.length && expected.every((e, i) => matchValue(actual[i], e, options));
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return false;
    const expectedKeys = definedKeys(expected);
    if (options.partial !== true) {
      const actualKeys = definedKeys(actual);
      if (actualKeys.length !== expectedKeys.length) return false;
    }
    return expectedKeys.every((key) => key in actual && matchValue(actual[key], expected[key], options));
  }
  return Object.is(actual, expected) || (actual === 0 && expected === 0);
}

function matchUnordered(actual: readonly unknown[], expected: readonly unknown[], options: MatchOptions): boolean {
  if (actual.length !== expected.length) return false;
  const remaining = [...actual];
  for (const e of expected) {
    const index = remaining.findIndex((a) => matchValue(a, e, options));
    if (index === -1) return false;
    remaining.splice(index, 1);
  }
  return remaining.length === 0;
}
