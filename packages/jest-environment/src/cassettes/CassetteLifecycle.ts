import * as fs from 'node:fs';
import type { CassetteMode } from '@sf-m3/core';
import {
  cassetteFileOf,
  type CassetteSettings,
  type CassetteSuiteOptions,
  resolveCassetteSettings,
  ModelValidationError,
} from '@sf-m3/core/internal';
import type { CassetteFileReport } from '../RunStateDir';
import type { BridgedCassetteBook, BridgedCassetteReport, CassetteBookRequest } from './bridgedCassettes';

/** What one test file's cassette lifecycle needs from its environment. */
export interface CassetteLifecycleOptions {
  /** Absolute path of the test file. */
  readonly testFile: string;
  /** The test file's path relative to the project root, `/`-separated. */
  readonly testPath: string;
  /** The worker's environment (`M3_CASSETTES`, `M3_UPDATE_CASSETTES`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Jest's `ci`. */
  readonly ci: boolean;
  /** `testEnvironmentOptions.cassettes` of the project (checked here). */
  readonly project: unknown;
  /** Opens the file's book from the sandbox's `@sf-m3/core`, on the first test that uses cassettes. */
  readonly openBook: (request: CassetteBookRequest) => BridgedCassetteBook;
  /** Where the file's `cassette_file` report goes (the run-state folder); none without global setup. */
  readonly report: (report: CassetteFileReport) => void;
  /** Redacts test names before they leave the worker. */
  readonly redact?: (text: string) => string;
}

/** The suite around a test, as far as cassettes are concerned. */
export interface CassetteSuite {
  readonly name: string;
  readonly cassettes?: CassetteSuiteOptions;
}

/**
 * One test file's cassettes (contract §24): a book opened on the first test whose mode is not
 * `off`, one scope per test attempt, and at the file's end `book.finish` and the `cassette_file`
 * report. The project's option and the environment are checked when the file starts, so a bad
 * mode fails the file with a message naming where it was set.
 *
 * A `describe.m3` suite may ask for its own mode: its tests get a scope of a book opened in that
 * mode on the same file. At most one of a file's books writes (`auto` or `record`; `replay` never
 * writes), and with more than one book no entry counts as obsolete (each book sees only its tests).
 */
export class CassetteLifecycle {
  private readonly fileSettings: CassetteSettings;
  /** The file's books by mode, in the order they were opened. */
  private readonly books = new Map<CassetteMode, BridgedCassetteBook>();
  private update = false;
  private finished = false;

  constructor(private readonly options: CassetteLifecycleOptions) {
    this.fileSettings = resolveCassetteSettings({ env: options.env, ci: options.ci, project: options.project });
  }

  /** The settings of a test in `suite` (the suite's mode ranks below the environment, above the project). */
  settingsOf(suite: CassetteSuite | null): CassetteSettings {
    if (suite?.cassettes?.mode === undefined) return this.fileSettings;
    return resolveCassetteSettings({
      env: this.options.env,
      ci: this.options.ci,
      project: this.options.project,
      suite: suite.cassettes.mode,
      suiteName: suite.name,
    });
  }

  /**
   * The scope of one test attempt, for its kit's `cassettes`; undefined when the test's mode is
   * `off` (the kit then has none, and its model clients go straight to their endpoints).
   */
  scopeFor(testName: string, suite: CassetteSuite | null): unknown {
    const settings = this.settingsOf(suite);
    if (settings.mode === 'off') return undefined;
    return this.bookFor(settings, suite).scope(testName, { servers: suite?.cassettes?.servers === true });
  }

  /**
   * Ends the file once: finishes its books and reports them. With no test having used cassettes,
   * an existing cassette file is still opened when the whole file ran, so its entries nothing
   * asked for are reported obsolete. Returns the report, or null when there was no book.
   */
  async finish(fullRun: boolean): Promise<CassetteFileReport | null> {
    if (this.finished) return null;
    this.finished = true;
    if (this.books.size === 0) {
      if (!fullRun || this.fileSettings.mode === 'off' || !fs.existsSync(this.cassetteFile())) return null;
      this.bookFor(this.fileSettings, null);
    }
    const whole = fullRun && this.books.size === 1;
    // The books that only read first; the one that writes last, so nothing it writes is read stale.
    const books = [...this.books.entries()].sort(([a], [b]) => Number(writes(a)) - Number(writes(b)));
    const reports: BridgedCassetteReport[] = [];
    for (const [, book] of books) reports.push(await book.finish({ fullRun: whole }));
    const redact = this.options.redact ?? ((text: string) => text);
    const obsolete = reports.reduce((sum, report) => sum + report.obsolete, 0);
    const written = reports.some((report) => report.written);
    const report: CassetteFileReport = {
      kind: 'cassette_file',
      testPath: this.options.testPath,
      replayed: reports.reduce((sum, one) => sum + one.replayed, 0),
      recorded: reports.reduce((sum, one) => sum + one.recorded, 0),
      obsolete,
      obsoleteTests: [...new Set(reports.flatMap((one) => one.obsoleteTests))].sort().map(redact),
      written,
      removed: this.update && whole && obsolete > 0 && written,
    };
    this.options.report(report);
    return report;
  }

  /** `__cassettes__/<test file name>.cassette.json` beside the test file. */
  cassetteFile(): string {
    return cassetteFileOf(this.options.testFile);
  }

  /** The book of `settings.mode`, opened on first use; a second writing mode in one file is refused. */
  private bookFor(settings: CassetteSettings, suite: CassetteSuite | null): BridgedCassetteBook {
    const open = this.books.get(settings.mode);
    if (open !== undefined) return open;
    const writer = [...this.books.keys()].find(writes);
    if (writes(settings.mode) && writer !== undefined) {
      const who = suite?.cassettes?.mode === undefined ? 'its tests' : `describe.m3('${suite.name}')`;
      throw new ModelValidationError(
        `${this.options.testPath}: ${who} would record cassettes in mode ${settings.mode}, but this file's ` +
          `cassette already records in mode ${writer}; one file's cassette is written in one mode: give ` +
          'its describe.m3 suites the same cassettes mode (or replay / off), or move the suite to a file of its own',
      );
    }
    const book = this.options.openBook({ testFile: this.options.testFile, testPath: this.options.testPath, settings });
    this.books.set(settings.mode, book);
    this.update ||= settings.update;
    return book;
  }
}

/** Modes whose book writes the file. */
function writes(mode: CassetteMode): boolean {
  return mode === 'auto' || mode === 'record';
}
