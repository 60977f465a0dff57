import type { JsonObject } from '@sf-m3/core';
import type { KitLike } from './findKit';

/** One matcher verdict, ready to be saved as an evaluation. */
export interface VerdictRecord {
  readonly matcherName: string;
  /** The assertion's result after `.not` was applied. */
  readonly passed: boolean;
  /** The failure message without colours, or `ok`. */
  readonly rationale: string;
  readonly subject: unknown;
  readonly executionId: string | null;
  readonly turnId: string | null;
  readonly negated: boolean;
  readonly testPath: string | null;
  readonly line: number | null;
  /** The assertion's arguments as one short redacted line (`"get_weather", {"count":2}`), so reports can name it. */
  readonly argumentsText?: string | null;
}

/**
 * The evaluator name a matcher records under: `m3.expect.<matcher>`, or `m3.expect.not.<matcher>`
 * for a negated use, so every per-evaluator view (summary, baselines, aggregation) keeps the two
 * apart without a special case (a deviation from contract §7, see the README's Decisions).
 */
export const evaluatorName = (matcherName: string, negated = false): string =>
  `m3.expect.${negated ? 'not.' : ''}${matcherName}`;

/**
 * Saves a verdict through `kit.recordCheck` when the kit records checks. The matcher does not wait:
 * the kit tracks the returned promise (and `kit.close()` awaits it); a rejection is caught here so
 * a storage problem never becomes an unhandled rejection in the test. Returns the promise, if any.
 */
export function recordVerdict(kit: KitLike | undefined, verdict: VerdictRecord): Promise<unknown> | undefined {
  if (!kit || kit.recordChecks !== true || typeof kit.recordCheck !== 'function') return undefined;
  const metadata: JsonObject = {
    negated: verdict.negated,
    testPath: verdict.testPath,
    line: verdict.line,
    matcher: verdict.matcherName,
    ...(verdict.argumentsText != null && { arguments: verdict.argumentsText }),
  };
  let pending: Promise<unknown>;
  try {
    pending = Promise.resolve(
      kit.recordCheck({
        evaluator: evaluatorName(verdict.matcherName, verdict.negated),
        passed: verdict.passed,
        rationale: verdict.rationale,
        subject: verdict.subject,
        executionId: verdict.executionId,
        turnId: verdict.turnId,
        metadata,
      }),
    );
  } catch (error) {
    pending = Promise.reject(error);
  }
  return pending.catch(() => undefined);
}
