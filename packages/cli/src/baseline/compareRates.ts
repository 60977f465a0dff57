// Pass-rate changes between two runs, each judged by a two-sided Fisher exact test on its
// passed / not-passed counts: only a drop with p < alpha is a regression; the rest is noise.
import { fisherExactTest } from '@sf-m3/core/internal';
import type { EvaluatorDelta, RateCounts } from '../summary/RunSummary';
import type { RateGroup } from './collectRateGroups';

/** Pass rates closer than this are equal (floating-point noise, not a change). */
const RATE_EPSILON = 1e-9;

/** The default significance level of `--alpha`. */
export const DEFAULT_ALPHA = 0.05;

function counts(row: RateGroup | undefined): RateCounts | null {
  if (row === undefined) return null;
  return {
    passRate: row.expected === 0 ? null : row.passed / row.expected,
    passed: row.passed,
    expected: row.expected,
  };
}

/** Compares one row of both runs; either side may be missing (a new or removed evaluator or case). */
export function compareRate(
  baseline: RateGroup | undefined,
  current: RateGroup | undefined,
  alpha: number,
): EvaluatorDelta {
  const identity = (current ?? baseline)!;
  const before = counts(baseline);
  const after = counts(current);
  const baselinePassRate = before?.passRate ?? null;
  const currentPassRate = after?.passRate ?? null;
  const comparable = baselinePassRate !== null && currentPassRate !== null;
  const pValue = comparable
    ? fisherExactTest(
        { passed: before!.passed, failed: before!.expected - before!.passed },
        { passed: after!.passed, failed: after!.expected - after!.passed },
      )
    : null;
  return {
    evaluator: identity.evaluator,
    scope: identity.scope,
    suiteName: identity.suiteName,
    caseId: identity.caseId,
    harness: identity.harness,
    model: identity.model,
    baselinePassRate,
    currentPassRate,
    delta: comparable ? currentPassRate - baselinePassRate : null,
    baseline: before,
    current: after,
    pValue,
    significance: pValue === null ? 'not comparable' : pValue < alpha ? 'significant' : 'within noise',
  };
}

/** True when the rate fell (by more than floating-point noise). */
export function isDrop(change: EvaluatorDelta): boolean {
  return change.delta !== null && change.delta < -RATE_EPSILON;
}

/** True when the rate changed either way. */
export function isChange(change: EvaluatorDelta): boolean {
  return change.delta !== null && Math.abs(change.delta) > RATE_EPSILON;
}

/** A significant drop: the only kind of rate change that is a regression. */
export function isRegression(change: EvaluatorDelta): boolean {
  return isDrop(change) && change.significance === 'significant';
}
