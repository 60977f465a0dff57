import type { CassetteScope } from './CassetteScope';
import type { CassetteSettings } from './CassetteMode';

/** Where one test file's cassette lives and how it runs. */
export interface CassetteBookOptions {
  /** Absolute path of the test file; the cassette is `__cassettes__/<basename>.cassette.json` beside it. */
  readonly testFile: string;
  /** The test file's path relative to the project root, `/`-separated (messages, reports). */
  readonly testPath: string;
  readonly settings: CassetteSettings;
}

/** What a test file's cassette did, reported at the file's end (summary, obsolete entries). */
export interface CassetteBookReport {
  readonly testPath: string;
  /** Absolute path of the cassette file. */
  readonly file: string;
  readonly replayed: number;
  readonly recorded: number;
  /**
   * Entries nothing asked for: tests that did not run although the whole file ran, and exchanges
   * a test that ran no longer made. Counted only when the whole file ran; removed under `update`.
   */
  readonly obsolete: number;
  /** Full names of the obsolete tests (for the report), sorted. */
  readonly obsoleteTests: readonly string[];
  /** True when the file was written (created, changed, or obsolete entries removed). */
  readonly written: boolean;
}

/**
 * What a test file's cassette did, as the Jest environment hands it to the `m3` CLI through the
 * run's state folder (the summary's `cassettes` line and its obsolete entries).
 */
export interface CassetteFileReport extends Omit<CassetteBookReport, 'file'> {
  readonly kind: 'cassette_file';
  /** True when the obsolete entries were removed from the file (`--update-cassettes` on a whole file). */
  readonly removed?: boolean;
}

/**
 * One test file's cassette (contract §24): loaded lazily on the first channel, shared by every
 * test of the file, written once when the file ends.
 */
export interface CassetteBook {
  /** The scope of one test (one attempt); `servers` from `describe.m3(name, { cassettes })`. */
  scope(testName: string, options?: { readonly servers?: boolean }): CassetteScope;
  /**
   * Ends the file: writes the cassette when something changed and the mode writes (never in
   * `replay` or `off`), and reports. `fullRun` is true when every test of the file was asked to
   * run (no `-t` filter, nothing skipped or focused): only then are entries counted obsolete.
   */
  finish(options: { readonly fullRun: boolean }): Promise<CassetteBookReport>;
}
