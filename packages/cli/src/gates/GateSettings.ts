// The gates a run is held to and where each came from, after the command line and the config
// have been merged (command line first).
import type { SurfaceThresholdConfig } from '@sf-m3/core';

/** Where a setting came from, in precedence order. */
export type GateSource = 'command line' | 'jest config' | 'package.json';

/** `--min-pass-rate [EVALUATOR=]RATE`: `evaluator` null applies to every evaluator without its own. */
export interface MinPassRate {
  evaluator: string | null;
  rate: number;
  source: GateSource;
}

/** Gate settings from one source, before merging. */
export interface GateConfig {
  source: GateSource;
  minPassRate: MinPassRate[];
  failOnRegression: boolean | null;
  alpha: number | null;
  /** `latest` or a run id, when the config names the baseline. */
  baseline: string | null;
  /** `m3.surfaceThreshold` (contract §25), when the config sets it; no command-line flag sets it. */
  surfaceThreshold?: SurfaceThresholdConfig | null;
}

/** The merged settings the run is held to. */
export interface GateSettings {
  minPassRate: MinPassRate[];
  failOnRegression: { value: boolean; source: GateSource } | null;
  alpha: { value: number; source: GateSource } | null;
  baseline: { value: string; source: GateSource } | null;
  /** Minimum surface coverage per measure, global or per server (contract §25). */
  surfaceThreshold?: { value: SurfaceThresholdConfig; source: GateSource } | null;
}

/** Settings of a source that sets nothing. */
export function noGateConfig(source: GateSource): GateConfig {
  return { source, minPassRate: [], failOnRegression: null, alpha: null, baseline: null, surfaceThreshold: null };
}
