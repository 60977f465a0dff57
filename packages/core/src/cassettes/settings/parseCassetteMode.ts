import { ModelValidationError } from '../../errors';
import { CASSETTE_MODES } from '../CassetteMode';
import type { CassetteMode } from '../CassetteMode';

/**
 * Checks that `value` is one of the four cassette modes (contract §24); `where` names the place it
 * came from (`M3_CASSETTES`, the Jest config's option, a `describe.m3` suite), so the error says
 * where to fix it.
 */
export function parseCassetteMode(value: unknown, where: string): CassetteMode {
  if (typeof value === 'string' && (CASSETTE_MODES as readonly string[]).includes(value)) return value as CassetteMode;
  const shown = typeof value === 'string' ? `"${value}"` : String(JSON.stringify(value) ?? value);
  throw new ModelValidationError(
    `${where} is ${shown}, which is not a cassette mode; use one of ${CASSETTE_MODES.join(', ')} ` +
      '(auto: replay what is recorded and record the rest; record: re-record everything; ' +
      'replay: never reach the model, a missing recording fails; off: live, nothing read or written)',
    { where, modes: [...CASSETTE_MODES] },
  );
}
