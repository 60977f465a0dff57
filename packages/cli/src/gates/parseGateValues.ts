// Parses gate values as typed on the command line or written in a config: `RATE` or
// `EVALUATOR=RATE` for a minimum pass rate, and a significance level. Every problem is a
// UsageError naming where the value came from and what a good value looks like.
import { UsageError } from '../options/UsageError';
import type { GateSource, MinPassRate } from './GateSettings';

function rateOf(where: string, text: string): number {
  const trimmed = text.trim();
  const rate = Number(trimmed);
  if (trimmed === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) {
    throw new UsageError(where, `a pass rate is a number from 0 to 1 (0.8 means 80%), not "${text}"`);
  }
  return rate;
}

/** `0.8` (every evaluator) or `quality.v1=0.95` (one evaluator; the last `=` separates). */
export function parseMinPassRate(where: string, value: string | number, source: GateSource): MinPassRate {
  if (typeof value === 'number') return { evaluator: null, rate: rateOf(where, String(value)), source };
  const split = value.lastIndexOf('=');
  if (split === -1) return { evaluator: null, rate: rateOf(where, value), source };
  const evaluator = value.slice(0, split).trim();
  if (evaluator === '') {
    throw new UsageError(
      where,
      `"${value}" names no evaluator: write EVALUATOR=RATE (e.g. quality.v1=0.9) or just RATE`,
    );
  }
  return { evaluator, rate: rateOf(where, value.slice(split + 1)), source };
}

/** A significance level strictly between 0 and 1. */
export function parseAlpha(where: string, value: string | number): number {
  const alpha = Number(value);
  if ((typeof value === 'string' && value.trim() === '') || !Number.isFinite(alpha) || alpha <= 0 || alpha >= 1) {
    throw new UsageError(
      where,
      `the significance level is a number between 0 and 1 (e.g. 0.05), not "${String(value)}"`,
    );
  }
  return alpha;
}
