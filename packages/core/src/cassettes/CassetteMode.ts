/**
 * How model traffic meets the cassette files (contract §24):
 * - `auto`: replay what is recorded, record what is missing (the default outside CI);
 * - `record`: send everything live and record it, replacing what the test had;
 * - `replay`: never reach the endpoint; a request with no recorded answer is a `CassetteMissError`
 *   (the default under `--ci` / `CI=true`);
 * - `off`: live, nothing read or written.
 */
export type CassetteMode = 'auto' | 'record' | 'replay' | 'off';

/** Every mode, in the order the CLI lists them. */
export const CASSETTE_MODES: readonly CassetteMode[] = Object.freeze(['auto', 'record', 'replay', 'off']);

/**
 * How an execution's model traffic was served, saved as `metadata.cassette` (contract §24): all from
 * the cassette, all live and recorded, or some of each. An execution with no cassette traffic (mode
 * `off`, or no model request) has no `metadata.cassette`.
 */
export type CassetteUse = 'replayed' | 'recorded' | 'mixed';

/** The settings one test file's cassettes run under. */
export interface CassetteSettings {
  readonly mode: CassetteMode;
  /**
   * `--update-cassettes`: re-record what runs (mode `record`) and, when the whole file ran, drop the
   * entries nothing asked for.
   */
  readonly update: boolean;
}
