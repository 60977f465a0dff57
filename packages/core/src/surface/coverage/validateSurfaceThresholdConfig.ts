// Checks `m3.surfaceThreshold` as a user wrote it in package.json or `testEnvironmentOptions.m3`
// (contract §25): `global` and server names map to objects of measures, each a percentage 0–100,
// as Jest's `coverageThreshold`. Every error names the bad key and how to fix it.
import { ModelValidationError } from '../../errors';
import { isObject } from '../../json';
import {
  SURFACE_MEASURES,
  type SurfaceMeasure,
  type SurfaceThreshold,
  type SurfaceThresholdConfig,
} from './SurfaceCoverage';

const EXAMPLE = `{ "global": { "tools": 80 }, "<server name>": { "toolsSucceeded": 100 } }`;

function isMeasure(key: string): key is SurfaceMeasure {
  return (SURFACE_MEASURES as readonly string[]).includes(key);
}

function validateThreshold(scope: string, value: unknown): SurfaceThreshold {
  if (!isObject(value)) {
    throw new ModelValidationError(
      `m3.surfaceThreshold.${scope} must be an object of measures (${SURFACE_MEASURES.join(', ')}) to percentages, ` +
        `got ${JSON.stringify(value) ?? String(value)}: write e.g. "${scope}": { "tools": 80 }`,
      { key: `surfaceThreshold.${scope}` },
    );
  }
  const threshold: Partial<Record<SurfaceMeasure, number>> = {};
  for (const [measure, percent] of Object.entries(value)) {
    const key = `m3.surfaceThreshold.${scope}.${measure}`;
    if (!isMeasure(measure)) {
      throw new ModelValidationError(`${key} is not a surface measure: use one of ${SURFACE_MEASURES.join(', ')}`, {
        key: `surfaceThreshold.${scope}.${measure}`,
      });
    }
    if (typeof percent !== 'number' || !Number.isFinite(percent) || percent < 0 || percent > 100) {
      throw new ModelValidationError(
        `${key} must be a percentage from 0 to 100, got ${JSON.stringify(percent) ?? String(percent)}: ` +
          `write e.g. "${measure}": 80`,
        { key: `surfaceThreshold.${scope}.${measure}` },
      );
    }
    threshold[measure] = percent;
  }
  return threshold;
}

/**
 * `value` as a `SurfaceThresholdConfig`, or a `ModelValidationError` naming the bad key and the fix.
 * Keys other than `global` are server names (the names the servers were given in the tests).
 */
export function validateSurfaceThresholdConfig(value: unknown): SurfaceThresholdConfig {
  if (!isObject(value)) {
    throw new ModelValidationError(
      `m3.surfaceThreshold must be an object of "global" and server names to thresholds, ` +
        `got ${JSON.stringify(value) ?? String(value)}: write e.g. ${EXAMPLE}`,
      { key: 'surfaceThreshold' },
    );
  }
  const config: Record<string, SurfaceThreshold> = {};
  for (const [scope, threshold] of Object.entries(value)) {
    if (scope.trim() === '') {
      throw new ModelValidationError(
        `m3.surfaceThreshold has an empty key: use "global" or a server's name, e.g. ${EXAMPLE}`,
        { key: 'surfaceThreshold' },
      );
    }
    config[scope] = validateThreshold(scope, threshold);
  }
  return config;
}
