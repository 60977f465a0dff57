import type { MatcherContext } from 'expect';
import { callSiteFrom, captureStack } from './callSite';
import { findKit, linkedKit, redactorOf } from './findKit';
import type { KitLike, RedactorLike } from './findKit';
import { finishMessage, safeValue, stripAnsi } from './formatValue';
import { recordVerdict } from './recordVerdict';
import { resolveSubject, subjectIds } from '@sf-m3/core/internal';

/** What one matcher implementation decides. */
export interface MatcherVerdict {
  /** The raw result before `.not`. */
  readonly pass: boolean;
  /** The failure text (without the `executionId=` line, which is added for you). */
  readonly message: () => string;
  /**
   * The assertion cannot be judged in either direction (an unfinalized subject, an ambiguous
   * tool name, a missing kit): it fails with or without `.not`.
   */
  readonly unusable?: boolean;
  /**
   * The body saved something of its own through the kit (the judge's verdict), so the matcher's
   * check is saved beside it even when the subject belongs to no execution (a plain string).
   */
  readonly savedThroughKit?: boolean;
  /** Overrides the execution/turn read from the subject. */
  readonly executionId?: string | null;
  readonly turnId?: string | null;
}

/** What a matcher implementation receives besides Jest's `this`. */
export interface M3MatcherScope {
  readonly matcherName: string;
  readonly kit: KitLike | undefined;
  readonly redactor: RedactorLike;
  /** A bounded, redacted copy of a value for printing. */
  safe(value: unknown): unknown;
}

/** A matcher body: sync, or async for the judge. */
export type MatcherBody<A extends unknown[]> = (
  this: MatcherContext,
  scope: M3MatcherScope,
  received: unknown,
  ...args: A
) => MatcherVerdict | Promise<MatcherVerdict>;

/** The function handed to `expect.extend`. */
export type M3MatcherFunction<A extends unknown[]> = (
  this: MatcherContext,
  received: unknown,
  ...args: A
) => { pass: boolean; message: () => string } | Promise<{ pass: boolean; message: () => string }>;

function compactSubject(received: unknown, executionId: string | null, turnId: string | null, scope: M3MatcherScope) {
  if (executionId !== null && resolveSubject(received).status !== 'unsupported') return { executionId, turnId };
  return scope.safe(received);
}

/** Longest argument line saved with a verdict (reports show it beside the call site). */
const MAX_ARGUMENTS_TEXT = 200;

/** The (already redacted) arguments as `"a", {"b":1}`, cut at `MAX_ARGUMENTS_TEXT`; null when there are none. */
function argumentsText(args: unknown): string | null {
  if (!Array.isArray(args) || args.length === 0) return null;
  // A RegExp or an asymmetric matcher (`expect.any(Number)`) is shown as the test wrote it.
  const literal = (value: unknown): unknown => {
    if (value instanceof RegExp) return String(value);
    const asymmetric = value as { asymmetricMatch?: unknown; toAsymmetricMatcher?: () => string } | null;
    if (typeof asymmetric?.asymmetricMatch === 'function') {
      return asymmetric.toAsymmetricMatcher?.() ?? String(asymmetric);
    }
    return value;
  };
  const show = (arg: unknown): string =>
    arg === undefined ? 'undefined' : (JSON.stringify(arg, (_key, value: unknown) => literal(value)) ?? String(arg));
  const text = args.map(show).join(', ');
  return text.length > MAX_ARGUMENTS_TEXT ? `${text.slice(0, MAX_ARGUMENTS_TEXT - 1)}…` : text;
}

/**
 * Wraps a matcher body with what every m3 matcher does (contract §7): the bounded, redacted message
 * ending in `executionId=...`, the `.not` handling of unusable subjects, and the recording of the
 * verdict as an `m3.expect.[not.]<matcher>` evaluation when the kit records checks.
 */
export function defineMatcher<A extends unknown[]>(
  matcherName: string,
  body: MatcherBody<A>,
  options: { needsKit?: boolean } = {},
): M3MatcherFunction<A> {
  const matcher = function (this: MatcherContext, received: unknown, ...args: A) {
    const stack = captureStack();
    const ids = subjectIds(received);
    // Only a subject of an execution (to record) or a matcher that needs a kit reaches for m3Kit.
    const kit = findKit(received, this, ids.executionId !== null || options.needsKit === true);
    const redactor = redactorOf(kit);
    const scope: M3MatcherScope = {
      matcherName,
      kit,
      redactor,
      safe: (value) => safeValue(value, redactor),
    };
    const finish = (verdict: MatcherVerdict) => {
      const isNot = this.isNot === true;
      const executionId = verdict.executionId !== undefined ? verdict.executionId : ids.executionId;
      const turnId = verdict.turnId !== undefined ? verdict.turnId : ids.turnId;
      const pass = verdict.unusable === true ? isNot : verdict.pass;
      const passed = verdict.unusable === true ? false : verdict.pass !== isNot;
      let cached: string | undefined;
      const message = () => {
        if (cached === undefined) {
          const suffix = executionId !== null ? `\n\nexecutionId=${redactor.redactText(executionId)}` : '';
          cached = finishMessage(verdict.message(), redactor) + suffix;
        }
        return cached;
      };
      if (executionId !== null || verdict.savedThroughKit === true || linkedKit(received) !== undefined) {
        const site = callSiteFrom(stack.stack, this.testPath);
        recordVerdict(kit, {
          matcherName,
          passed,
          rationale: passed ? 'ok' : stripAnsi(message()),
          subject: {
            matcher: matcherName,
            received: compactSubject(received, executionId, turnId, scope),
            arguments: scope.safe(args),
            testPath: this.testPath ?? null,
            line: site.line,
          },
          executionId,
          turnId,
          negated: isNot,
          testPath: this.testPath ?? null,
          line: site.line,
          argumentsText: argumentsText(scope.safe(args)),
        });
      }
      return { pass, message };
    };
    const verdict = body.call(this, scope, received, ...args);
    return verdict instanceof Promise ? verdict.then(finish) : finish(verdict);
  };
  Object.defineProperty(matcher, 'name', { value: matcherName });
  return matcher;
}
