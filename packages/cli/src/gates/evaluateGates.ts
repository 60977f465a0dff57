// Holds a run's summary to its gates: each minimum pass rate against each evaluator it applies to,
// and `failOnRegression` against the baseline comparison's significant drops. A failed gate makes
// the verdict `failed` (exit status 1); each result says what was held and by how much it missed.
import type { BaselineComparison, EvaluatorStats, GateResult } from '../summary/RunSummary';
import type { GateSettings, MinPassRate } from './GateSettings';

const percent = (rate: number): string => `${(rate * 100).toFixed(1)}%`;
const points = (gap: number): string => `${(gap * 100).toFixed(1)} pts`;

function rateGate(gate: MinPassRate, evaluator: string, stats: EvaluatorStats | undefined): GateResult {
  const base = {
    kind: 'min_pass_rate' as const,
    evaluator,
    threshold: gate.rate,
    source: gate.source,
    regressions: null,
  };
  if (stats === undefined || stats.passRate === null) {
    const why = stats === undefined ? 'recorded no evaluations in this run' : 'had no expected evaluations';
    return {
      ...base,
      actual: null,
      gap: null,
      passed: false,
      message: `min pass rate ${evaluator} ≥ ${percent(gate.rate)}: ${evaluator} ${why}`,
    };
  }
  const actual = stats.passRate;
  // A rate equal to the threshold passes; compare in the same rounding users read.
  const passed = actual + 1e-12 >= gate.rate;
  const gap = passed ? 0 : gate.rate - actual;
  const counts = `${stats.passed}/${stats.expected}`;
  return {
    ...base,
    actual,
    gap,
    passed,
    message: passed
      ? `min pass rate ${evaluator} ≥ ${percent(gate.rate)}: ${percent(actual)} (${counts}) passes`
      : `min pass rate ${evaluator} ≥ ${percent(gate.rate)}: ${percent(actual)} (${counts}) is ${points(gap)} below`,
  };
}

function regressionGate(
  settings: NonNullable<GateSettings['failOnRegression']>,
  baseline: BaselineComparison | null,
  note: string | null,
): GateResult {
  const base = {
    kind: 'no_regression' as const,
    evaluator: null,
    threshold: null,
    actual: null,
    gap: null,
    source: settings.source,
  };
  if (baseline === null) {
    return {
      ...base,
      regressions: null,
      passed: true,
      message: `no regression: nothing to compare with (${note ?? 'no --baseline given'})`,
    };
  }
  const drops = baseline.regressions;
  const alpha = `p < ${baseline.alpha}`;
  if (drops.length === 0) {
    const noise = baseline.dropsWithinNoise > 0 ? `; ${baseline.dropsWithinNoise} drop(s) within noise` : '';
    return {
      ...base,
      regressions: 0,
      passed: true,
      message: `no regression against ${baseline.baselineRunId}: no significant drop (${alpha})${noise}`,
    };
  }
  const worst = drops.map(
    (d) =>
      `${d.evaluator}${d.scope === 'evaluator' ? '' : ` [${d.scope}]`} ${points(-(d.delta ?? 0))} down (p = ${d.pValue?.toPrecision(2)})`,
  );
  return {
    ...base,
    regressions: drops.length,
    passed: false,
    message: `no regression against ${baseline.baselineRunId}: ${drops.length} significant drop(s) (${alpha}): ${worst.slice(0, 3).join(', ')}${drops.length > 3 ? ', …' : ''}`,
  };
}

/** Every gate's result, rate gates first (by evaluator), then the regression gate. */
export function evaluateGates(
  settings: GateSettings,
  evaluations: readonly EvaluatorStats[],
  baseline: BaselineComparison | null,
  baselineNote: string | null,
): GateResult[] {
  const byName = new Map(evaluations.map((e) => [e.evaluator, e]));
  const results: GateResult[] = [];
  const specific = new Map(settings.minPassRate.filter((g) => g.evaluator !== null).map((g) => [g.evaluator!, g]));
  const every = settings.minPassRate.find((g) => g.evaluator === null);
  const names = [...new Set([...evaluations.map((e) => e.evaluator), ...specific.keys()])].sort();
  for (const name of names) {
    const gate = specific.get(name) ?? every;
    if (gate === undefined) continue;
    const stats = byName.get(name);
    // The every-evaluator gate holds the evaluators that had something to pass; one named gate
    // also fails when its evaluator is absent (a renamed evaluator must not pass CI silently).
    if (gate.evaluator === null && (stats === undefined || stats.passRate === null)) continue;
    results.push(rateGate(gate, name, stats));
  }
  if (settings.failOnRegression?.value === true) {
    results.push(regressionGate(settings.failOnRegression, baseline, baselineNote));
  }
  return results;
}
