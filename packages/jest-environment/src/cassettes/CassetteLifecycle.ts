import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveCassetteSettings } from '@sf-m3/core';
import type { CassetteSettings, CassetteSuiteOptions } from '@sf-m3/core';
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
 * One test file's cassettes (contract §24): the book opened on the first test whose mode is not
 * `off`, one scope per test attempt, and at the file's end `book.finish` and the `cassette_file`
 * report. The project's option and the environment are checked when the file starts, so a bad
 * mode fails the file with a message naming where it was set.
 */
export class CassetteLifecycle {
  private readonly fileSettings: CassetteSettings;
  private book: BridgedCassetteBook | null = null;
  private bookSettings: CassetteSettings | null = null;
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
    const book = this.openBook(settings);
    const servers = suite?.cassettes?.servers === true;
    // A suite whose mode differs from the one the book was opened with asks for its own.
    const mode = settings.mode === this.bookSettings?.mode ? undefined : settings.mode;
    return book.scope(testName, { servers, ...(mode !== undefined && { mode }) });
  }

  /**
   * Ends the file once: finishes the book and reports it. With no test having used cassettes, an
   * existing cassette file is still opened when the whole file ran, so its entries nothing asked
   * for are reported obsolete. Returns the book's report, or null when there was no book.
   */
  async finish(fullRun: boolean): Promise<BridgedCassetteReport | null> {
    if (this.finished) return null;
    this.finished = true;
    if (this.book === null && (!fullRun || this.fileSettings.mode === 'off' || !fs.existsSync(this.cassetteFile()))) {
      return null;
    }
    const book = this.book ?? this.openBook(this.fileSettings);
    const update = this.bookSettings?.update === true;
    const report = await book.finish({ fullRun });
    const redact = this.options.redact ?? ((text: string) => text);
    this.options.report({
      kind: 'cassette_file',
      testPath: this.options.testPath,
      replayed: report.replayed,
      recorded: report.recorded,
      obsolete: report.obsolete,
      obsoleteTests: report.obsoleteTests.map(redact),
      written: report.written,
      removed: update && fullRun && report.obsolete > 0 && report.written,
    });
    return report;
  }

  /** `__cassettes__/<test file name>.cassette.json` beside the test file. */
  cassetteFile(): string {
    const { testFile } = this.options;
    return path.join(path.dirname(testFile), '__cassettes__', `${path.basename(testFile)}.cassette.json`);
  }

  private openBook(settings: CassetteSettings): BridgedCassetteBook {
    if (this.book === null) {
      this.book = this.options.openBook({ testFile: this.options.testFile, testPath: this.options.testPath, settings });
      this.bookSettings = settings;
    }
    return this.book;
  }
}
