// `m3 test --cassettes <mode>`, `--update-cassettes` and `--ci` (contract §24): the CLI hands the
// mode to every Jest worker as M3_CASSETTES / M3_UPDATE_CASSETTES, and `--ci` to Jest itself, whose
// `ci` makes `replay` the default mode.
import type { CassetteMode } from '@sf-m3/core';
import { CASSETTE_MODES, CASSETTES_ENV, readCassetteEnv, UPDATE_CASSETTES_ENV, M3Error } from '@sf-m3/core/internal';
import { UsageError } from '../options/UsageError';

/** The cassette flags of one `m3 test`. */
export interface CassetteFlags {
  /** `--cassettes <mode>`; null when not given (then `M3_CASSETTES` from the environment, else the default). */
  readonly mode: CassetteMode | null;
  /** `--update-cassettes`: re-record what runs and drop obsolete entries. */
  readonly update: boolean;
  /** `--ci`: passed to Jest as its `--ci` (no cassette or snapshot is written; replay by default). */
  readonly ci: boolean;
}

/** What commander collected for these flags. */
export interface RawCassetteFlags {
  cassettes?: string;
  updateCassettes?: boolean;
  ci?: boolean;
}

/** Validates the flags; a bad mode, or `--update-cassettes` with another mode than `record`, is a usage error. */
export function parseCassetteFlags(raw: RawCassetteFlags): CassetteFlags {
  let mode: CassetteMode | null = null;
  if (raw.cassettes !== undefined) {
    const value = raw.cassettes.trim();
    if (!(CASSETTE_MODES as readonly string[]).includes(value)) {
      throw new UsageError(
        '--cassettes',
        `"${raw.cassettes}" is not a cassette mode; use one of ${CASSETTE_MODES.join(', ')}`,
      );
    }
    mode = value as CassetteMode;
  }
  const update = raw.updateCassettes === true;
  if (update && mode !== null && mode !== 'record') {
    throw new UsageError(
      '--update-cassettes',
      `re-records what runs, so it cannot go with --cassettes ${mode}; drop --cassettes ${mode}`,
    );
  }
  return { mode, update, ci: raw.ci === true };
}

/**
 * Sets the workers' variables from the flags; without a flag an inherited `M3_CASSETTES` /
 * `M3_UPDATE_CASSETTES` stays (the documented way to set the mode without the CLI), and is checked
 * here so a bad value stops the run before Jest starts.
 */
export function applyCassetteFlags(env: NodeJS.ProcessEnv, flags: CassetteFlags): void {
  if (flags.update) {
    env[UPDATE_CASSETTES_ENV] = '1';
    delete env[CASSETTES_ENV];
  } else if (flags.mode !== null) {
    env[CASSETTES_ENV] = flags.mode;
    delete env[UPDATE_CASSETTES_ENV];
  }
  try {
    readCassetteEnv(env);
  } catch (error) {
    if (error instanceof M3Error) throw new UsageError('environment', error.message);
    throw error;
  }
}

/** Jest's arguments with `--ci` first when `m3 test --ci` asked for it (and Jest's were not already given it). */
export function withCiArgument(args: readonly string[], flags: CassetteFlags): string[] {
  return flags.ci && !args.includes('--ci') && !args.includes('--ci=true') ? ['--ci', ...args] : [...args];
}
