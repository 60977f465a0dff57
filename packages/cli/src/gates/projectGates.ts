// The gates `m3 test` holds a run to: its own flags merged over the project's config
// (`testEnvironmentOptions.m3` of the Jest config, then package.json's "m3"), with the baseline
// the regression gate needs checked before Jest runs.
import type { TestOptions } from '../options/testOptions';
import { UsageError } from '../options/UsageError';
import { validateRunId } from '../options/testOptions';
import type { GateSettings } from './GateSettings';
import type { LoadedJestConfig } from '../jest/jestConfigAnswer';
import { readGateConfig } from './readGateConfig';
import { resolveGates } from './resolveGates';

/** Reads the config in `projectRoot` (the Jest config as `jest` read it) and merges it under the command line's gate flags and `--baseline`. */
export function projectGates(
  options: Pick<TestOptions, 'gates' | 'baseline'>,
  projectRoot: string,
  jest: LoadedJestConfig,
): GateSettings {
  const { jestConfig, packageJson } = readGateConfig(projectRoot, jest);
  const commandLine = { ...options.gates, baseline: options.baseline };
  const settings = resolveGates(commandLine, jestConfig, packageJson);
  if (settings.baseline !== null && settings.baseline.value !== 'latest') {
    validateRunId(
      settings.baseline.source === 'command line' ? '--baseline' : `${settings.baseline.source} m3.baseline`,
      settings.baseline.value,
    );
  }
  if (settings.failOnRegression?.value === true && settings.baseline === null) {
    const flag =
      settings.failOnRegression.source === 'command line'
        ? '--fail-on-regression'
        : `${settings.failOnRegression.source} m3.failOnRegression`;
    throw new UsageError(
      flag,
      'needs a run to compare with: add --baseline latest (or a run id), or "baseline": "latest" to the m3 config',
    );
  }
  return settings;
}
