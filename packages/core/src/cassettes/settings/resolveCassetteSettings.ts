import type { CassetteMode, CassetteSettings } from '../CassetteMode';
import { readCassetteEnv } from './cassetteEnv';
import { parseCassetteMode } from './parseCassetteMode';

/** Where a test's cassette settings can come from (contract §24). */
export interface CassetteSettingSources {
  /** The worker's environment: `M3_CASSETTES`, `M3_UPDATE_CASSETTES` (set by `m3 test`'s flags). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Jest's `ci` (its `--ci`, or `CI=true` detected by Jest): the default becomes `replay`. */
  readonly ci: boolean;
  /** The project's default, `testEnvironmentOptions: { cassettes: '<mode>' }` in the Jest config (unchecked). */
  readonly project?: unknown;
  /** The mode a `describe.m3(name, { cassettes: { mode } })` suite asks for (unchecked). */
  readonly suite?: unknown;
  /** The suite's name, for the error message about its mode. */
  readonly suiteName?: string;
}

/** Where the project's default mode is set, as the error messages name it. */
export const PROJECT_CASSETTES_OPTION = 'testEnvironmentOptions.cassettes in the Jest config';

/**
 * The mode and update flag one test runs under. Precedence (contract §24): the environment (the
 * CLI's `--cassettes` / `--update-cassettes`) over the `describe.m3` option over the project's
 * option over the default: `replay` under Jest's `ci`, else `auto`. `--update-cassettes` means mode
 * `record` with obsolete entries removed. A mode that is not one of the four is refused wherever it
 * was given, even where a higher source overrides it, so a typo never hides.
 */
export function resolveCassetteSettings(sources: CassetteSettingSources): CassetteSettings {
  const fromEnv = readCassetteEnv(sources.env);
  const suite =
    sources.suite === undefined
      ? null
      : parseCassetteMode(sources.suite, `describe.m3('${sources.suiteName ?? '…'}', { cassettes: { mode } })`);
  const project = sources.project === undefined ? null : parseCassetteMode(sources.project, PROJECT_CASSETTES_OPTION);
  if (fromEnv.update) return { mode: 'record', update: true };
  const mode: CassetteMode = fromEnv.mode ?? suite ?? project ?? (sources.ci ? 'replay' : 'auto');
  return { mode, update: false };
}
