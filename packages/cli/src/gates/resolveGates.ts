// Merges gate settings: the command line wins over the Jest config's `testEnvironmentOptions.m3`,
// which wins over package.json's "m3". Minimum pass rates merge per evaluator: each evaluator's
// own rate (and the every-evaluator rate) is taken from the first source that sets it.
import type { GateConfig, GateSettings, MinPassRate } from './GateSettings';

function firstSurfaceThreshold(sources: readonly GateConfig[]): GateSettings['surfaceThreshold'] {
  for (const source of sources) {
    if (source.surfaceThreshold != null) return { value: source.surfaceThreshold, source: source.source };
  }
  return null;
}

/** Merges sources given in precedence order (highest first). */
export function resolveGates(...sources: GateConfig[]): GateSettings {
  const rates = new Map<string | null, MinPassRate>();
  for (const source of sources) {
    for (const gate of source.minPassRate) {
      // Within one source the last value for an evaluator wins, as repeated flags do.
      const taken = rates.get(gate.evaluator);
      if (taken === undefined || taken.source === gate.source) rates.set(gate.evaluator, gate);
    }
  }
  const first = <K extends 'failOnRegression' | 'alpha' | 'baseline'>(key: K) => {
    for (const source of sources) {
      const value = source[key];
      if (value !== null) return { value: value as NonNullable<GateConfig[K]>, source: source.source };
    }
    return null;
  };
  return {
    minPassRate: [...rates.values()].sort((a, b) => (a.evaluator ?? '').localeCompare(b.evaluator ?? '')),
    failOnRegression: first('failOnRegression'),
    alpha: first('alpha'),
    baseline: first('baseline'),
    // The whole threshold object comes from one source, as Jest's own coverageThreshold does.
    surfaceThreshold: firstSurfaceThreshold(sources),
  };
}
