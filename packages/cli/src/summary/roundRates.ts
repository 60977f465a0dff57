// Rates as the JSON outputs (feedback.json, `--json`) show them: four decimal places, so binary
// float noise such as `-0.19999999999999996` never reaches a reader. The store keeps its numbers.
import { roundSurfaceCoverage } from '../surface/roundSurfaceCoverage';
import type { AgentGroupStats, EvaluatorDelta, EvaluatorStats, RunSummary } from './RunSummary';

/** Decimal places of every rate, interval bound, delta and average score in JSON output. */
export const RATE_DECIMALS = 4;

const SCALE = 10 ** RATE_DECIMALS;

/** `value` rounded to {@link RATE_DECIMALS} places (`-0` becomes `0`); `null` stays `null`. */
export function roundRate(value: number | null): number | null {
  if (value === null) return null;
  const rounded = Math.round(value * SCALE) / SCALE;
  return rounded === 0 ? 0 : rounded;
}

const roundInterval = (interval: [number, number] | null): [number, number] | null =>
  interval === null ? null : [roundRate(interval[0])!, roundRate(interval[1])!];

const roundEvaluator = (stats: EvaluatorStats): EvaluatorStats => ({
  ...stats,
  passRate: roundRate(stats.passRate),
  interval: roundInterval(stats.interval),
  averageScore: roundRate(stats.averageScore),
});

const roundGroup = (stats: AgentGroupStats): AgentGroupStats => ({
  ...stats,
  passRate: roundRate(stats.passRate),
  interval: roundInterval(stats.interval),
});

const roundCounts = (counts: EvaluatorDelta['baseline']): EvaluatorDelta['baseline'] =>
  counts === null ? null : { ...counts, passRate: roundRate(counts.passRate) };

/** p-values keep six significant digits: a small one must not round to 0. */
const roundPValue = (p: number | null): number | null => (p === null ? null : Number(p.toPrecision(6)));

const roundDelta = (delta: EvaluatorDelta): EvaluatorDelta => ({
  ...delta,
  baselinePassRate: roundRate(delta.baselinePassRate),
  currentPassRate: roundRate(delta.currentPassRate),
  delta: roundRate(delta.delta),
  baseline: roundCounts(delta.baseline),
  current: roundCounts(delta.current),
  pValue: roundPValue(delta.pValue),
});

/** A copy of `summary` whose rates, intervals, deltas and average scores are rounded for JSON output. */
export function roundSummaryRates(summary: RunSummary): RunSummary {
  const { agents, baseline } = summary;
  return {
    ...summary,
    evaluations: summary.evaluations.map(roundEvaluator),
    agents:
      agents === null
        ? null
        : {
            byHarness: agents.byHarness.map(roundGroup),
            byModel: agents.byModel.map(roundGroup),
            byCase: agents.byCase.map(roundGroup),
          },
    baseline:
      baseline === null
        ? null
        : {
            ...baseline,
            regressedEvaluators: baseline.regressedEvaluators.map(roundDelta),
            evaluators: baseline.evaluators.map(roundDelta),
            groups: baseline.groups.map(roundDelta),
            regressions: baseline.regressions.map(roundDelta),
          },
    gates: summary.gates.map((gate) => ({ ...gate, actual: roundRate(gate.actual), gap: roundRate(gate.gap) })),
    protocols: !summary.protocols
      ? null
      : {
          revisions: summary.protocols.revisions.map((row) => ({
            ...row,
            evaluators: row.evaluators.map((e) => ({
              ...e,
              passRate: roundRate(e.passRate),
              interval: roundInterval(e.interval),
            })),
          })),
        },
    surface: roundSurfaceCoverage(summary.surface),
  };
}
