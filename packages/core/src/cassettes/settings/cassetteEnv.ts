import { ModelValidationError } from '../../errors';
import type { CassetteMode } from '../CassetteMode';
import { parseCassetteMode } from './parseCassetteMode';

/** The cassette mode of the whole run, set by `m3 test --cassettes <mode>` (contract §24). */
export const CASSETTES_ENV = 'M3_CASSETTES';
/** `1` re-records what runs and drops obsolete entries, set by `m3 test --update-cassettes` (contract §24). */
export const UPDATE_CASSETTES_ENV = 'M3_UPDATE_CASSETTES';

/** What the run's environment says about cassettes; `mode` null when it does not say. */
export interface CassetteEnvSettings {
  readonly mode: CassetteMode | null;
  readonly update: boolean;
}

/**
 * Reads `M3_CASSETTES` and `M3_UPDATE_CASSETTES`. An empty variable counts as unset; a mode that is
 * not one of the four, an update flag that is not `1`/`true`/`0`/`false`, or an update with a mode
 * other than `record` is refused with the variable's name.
 */
export function readCassetteEnv(env: Readonly<Record<string, string | undefined>>): CassetteEnvSettings {
  const rawMode = env[CASSETTES_ENV]?.trim() ?? '';
  const mode = rawMode === '' ? null : parseCassetteMode(rawMode, `${CASSETTES_ENV} (m3 test --cassettes)`);
  const update = parseUpdateFlag(env[UPDATE_CASSETTES_ENV]);
  if (update && mode !== null && mode !== 'record') {
    throw new ModelValidationError(
      `${UPDATE_CASSETTES_ENV} (m3 test --update-cassettes) re-records, but ${CASSETTES_ENV} is "${mode}": ` +
        `drop --cassettes ${mode}, or use --cassettes record`,
      { mode },
    );
  }
  return { mode, update };
}

function parseUpdateFlag(value: string | undefined): boolean {
  const text = value?.trim().toLowerCase() ?? '';
  if (text === '' || text === '0' || text === 'false') return false;
  if (text === '1' || text === 'true') return true;
  throw new ModelValidationError(
    `${UPDATE_CASSETTES_ENV} is "${value ?? ''}"; set it to 1 to re-record cassettes (m3 test --update-cassettes), or unset it`,
  );
}
