// Gates written into the project instead of the command line: `testEnvironmentOptions.m3` of the
// Jest config (found and loaded as Jest does, every format, by the Jest process before Jest starts:
// bin/jestAfterConfig.js) and the "m3" section
// of package.json. Both take the same keys:
//   { minPassRate: 0.8 | "quality.v1=0.9" | [0.8, "quality.v1=0.9"] | { "*": 0.8, "quality.v1": 0.9 },
//     failOnRegression: true, alpha: 0.05, baseline: "latest",
//     surfaceThreshold: { global: { tools: 80 }, "<server>": { toolsSucceeded: 100 } } }
// Other keys (resultsDb…) belong to the environment and are ignored here.
import { existsSync, readFileSync } from 'node:fs';
import { ModelValidationError, validateSurfaceThresholdConfig } from '@sf-m3/core/internal';
import type { SurfaceThresholdConfig } from '@sf-m3/core';
import { join } from 'node:path';
import { UsageError } from '../options/UsageError';
import type { LoadedJestConfig } from '../jest/jestConfigAnswer';
import type { GateConfig, GateSource } from './GateSettings';
import { noGateConfig } from './GateSettings';
import { parseAlpha, parseMinPassRate } from './parseGateValues';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `surfaceThreshold` of one `m3` section, checked (contract §25); a bad value is a usage error naming its key. */
function parseSurfaceThreshold(where: string, value: unknown): SurfaceThresholdConfig | null {
  if (value === undefined || value === null) return null;
  try {
    return validateSurfaceThresholdConfig(value);
  } catch (error) {
    if (!(error instanceof ModelValidationError)) throw error;
    // The flag names the exact key (`package.json "m3".surfaceThreshold.global.tool`); the message what to write.
    const key = typeof error.details.key === 'string' ? error.details.key : 'surfaceThreshold';
    throw new UsageError(`${where}.${key}`, error.message.replace(`m3.${key} `, ''));
  }
}

/** Parses one `m3` settings object; `where` prefixes every error (e.g. `package.json "m3"`). */
export function parseGateConfig(section: unknown, where: string, source: GateSource): GateConfig {
  if (section === undefined || section === null) return noGateConfig(source);
  if (!isObject(section)) throw new UsageError(where, 'must be an object such as { "minPassRate": 0.8 }');
  const { minPassRate, failOnRegression, alpha, baseline, surfaceThreshold } = section;
  const rates: GateConfig['minPassRate'] = [];
  const at = `${where}.minPassRate`;
  if (typeof minPassRate === 'number' || typeof minPassRate === 'string') {
    rates.push(parseMinPassRate(at, minPassRate, source));
  } else if (Array.isArray(minPassRate)) {
    for (const item of minPassRate) {
      if (typeof item !== 'number' && typeof item !== 'string') {
        throw new UsageError(at, 'list entries are rates (0.8) or "EVALUATOR=RATE" strings');
      }
      rates.push(parseMinPassRate(at, item, source));
    }
  } else if (isObject(minPassRate)) {
    for (const [evaluator, rate] of Object.entries(minPassRate)) {
      if (typeof rate !== 'number') throw new UsageError(`${at}.${evaluator}`, 'must be a number from 0 to 1');
      const parsed = parseMinPassRate(`${at}.${evaluator}`, rate, source);
      rates.push({ ...parsed, evaluator: evaluator === '*' ? null : evaluator });
    }
  } else if (minPassRate !== undefined) {
    throw new UsageError(
      at,
      'must be a rate (0.8), "EVALUATOR=RATE", a list of them, or { "*": 0.8, "EVALUATOR": 0.9 }',
    );
  }
  if (failOnRegression !== undefined && typeof failOnRegression !== 'boolean') {
    throw new UsageError(`${where}.failOnRegression`, 'must be true or false');
  }
  if (baseline !== undefined && (typeof baseline !== 'string' || baseline.trim() === '')) {
    throw new UsageError(`${where}.baseline`, 'must be "latest" or a run id');
  }
  return {
    source,
    minPassRate: rates,
    failOnRegression: failOnRegression ?? null,
    alpha: alpha === undefined ? null : parseAlpha(`${where}.alpha`, alpha as string | number),
    baseline: typeof baseline === 'string' ? baseline.trim() : null,
    surfaceThreshold: parseSurfaceThreshold(where, surfaceThreshold),
  };
}

/** The gate settings of the Jest config (as `jest` read it) and of package.json in `folder` (the project root). */
export function readGateConfig(
  folder: string,
  jest: LoadedJestConfig,
): { jestConfig: GateConfig; packageJson: GateConfig } {
  let pkg: Record<string, unknown> | null = null;
  const pkgPath = join(folder, 'package.json');
  if (existsSync(pkgPath)) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(pkgPath, 'utf8'));
      pkg = isObject(parsed) ? parsed : null;
    } catch (error) {
      throw new UsageError('package.json', `is not valid JSON: ${(error as Error).message}`);
    }
  }
  // A config that does not load is Jest's to report: Jest then fails the run (verdict failed,
  // exit 1), which no gate could pass anyway, and the run is still recorded.
  return {
    jestConfig:
      jest.status === 'loaded'
        ? parseGateConfig(jest.m3, `${jest.file} testEnvironmentOptions.m3`, 'jest config')
        : noGateConfig('jest config'),
    packageJson: parseGateConfig(pkg?.m3, 'package.json "m3"', 'package.json'),
  };
}
