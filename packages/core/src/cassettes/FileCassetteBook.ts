import { existsSync, rmSync } from 'node:fs';
import { M3Error } from '../errors/M3Error';
import { BookScope } from './BookScope';
import type { CassetteBook, CassetteBookOptions, CassetteBookReport } from './CassetteBook';
import {
  CASSETTE_SCHEMA_VERSION,
  type CassetteExchange,
  type CassetteFileContent,
  type CassetteTestEntry,
} from './CassetteFormat';
import type { CassetteMode } from './CassetteMode';
import { cassetteFileOf, readCassetteFile, serializeCassette, writeCassetteFile } from './cassetteFile';

/** The cassette of one test file, opened lazily (contract §24): nothing is read until a channel needs it. */
export function openCassetteBook(options: CassetteBookOptions): CassetteBook {
  return new FileCassetteBook(options);
}

/**
 * One test file's cassette (contract §24): `__cassettes__/<basename>.cassette.json`, read on the
 * first channel, shared by every test of the file, and written once at `finish` when it changed and
 * the mode writes (`auto`, `record`). The latest attempt of a test replaces what earlier attempts
 * recorded (Jest retries).
 */
export class FileCassetteBook implements CassetteBook {
  /** Absolute path of the cassette file. */
  readonly file: string;
  private readonly options: CassetteBookOptions;
  /** The file's content once read (null: no file); undefined before the first read. */
  private loaded: CassetteFileContent | null | undefined;
  /** The file's exact text when it was read, to write only when something changed. */
  private loadedText: string | null = null;
  /** Latest attempt per full test name. */
  private readonly attempts = new Map<string, BookScope>();
  private finished = false;

  constructor(options: CassetteBookOptions) {
    this.options = options;
    this.file = cassetteFileOf(options.testFile);
  }

  /** The mode every scope of this book runs in. */
  get mode(): CassetteMode {
    return this.options.settings.mode;
  }

  scope(testName: string, options?: { readonly servers?: boolean }): BookScope {
    if (this.finished) {
      throw new M3Error(
        'invalid_argument',
        `the cassette book of ${this.options.testPath} is finished: open a new book for another run`,
      );
    }
    const scope = new BookScope(
      {
        mode: this.mode,
        testPath: this.options.testPath,
        recordedExchanges: (test, channel) => this.content()?.tests[test]?.channels[channel] ?? [],
      },
      testName,
      options?.servers ?? false,
    );
    const previous = this.attempts.get(testName);
    if (previous) void previous.closeChannels();
    this.attempts.set(testName, scope);
    return scope;
  }

  async finish(options: { readonly fullRun: boolean }): Promise<CassetteBookReport> {
    this.finished = true;
    await Promise.all([...this.attempts.values()].map((scope) => scope.closeChannels()));
    let replayed = 0;
    let recorded = 0;
    for (const scope of this.attempts.values()) {
      for (const tape of scope.usedTapes().values()) {
        replayed += tape.replayed;
        recorded += tape.recordedLive;
      }
    }
    const report = { testPath: this.options.testPath, file: this.file, replayed, recorded };
    if (this.mode === 'off') return { ...report, obsolete: 0, obsoleteTests: [], written: false };
    const old = this.content()?.tests ?? {};
    const obsoleteTests = options.fullRun
      ? Object.keys(old)
          .filter((name) => !this.attempts.has(name))
          .sort()
      : [];
    let obsolete = 0;
    if (options.fullRun) {
      for (const name of obsoleteTests) obsolete += exchangeCount(old[name]!);
      for (const [name, scope] of this.attempts) {
        const entry = old[name];
        if (!entry) continue;
        for (const [channel, exchanges] of Object.entries(entry.channels)) {
          const tape = scope.usedTapes().get(channel);
          obsolete += tape ? tape.obsoleteCount() : exchanges.length;
        }
      }
    }
    const writes = this.mode === 'auto' || this.mode === 'record';
    const written = writes && this.write(this.nextContent(old, options.fullRun && this.options.settings.update));
    return { ...report, obsolete, obsoleteTests, written };
  }

  /** The file's content after this run; `dropObsolete` leaves out what nothing asked for. */
  private nextContent(old: Readonly<Record<string, CassetteTestEntry>>, dropObsolete: boolean): CassetteFileContent {
    const tests: Record<string, CassetteTestEntry> = {};
    for (const [name, entry] of Object.entries(old)) {
      if (!dropObsolete || this.attempts.has(name)) tests[name] = entry;
    }
    for (const [name, scope] of this.attempts) {
      const channels: Record<string, readonly CassetteExchange[]> = dropObsolete
        ? {}
        : { ...(old[name]?.channels ?? {}) };
      for (const [channel, tape] of scope.usedTapes()) channels[channel] = tape.result(dropObsolete);
      for (const channel of Object.keys(channels)) if (channels[channel]!.length === 0) delete channels[channel];
      if (Object.keys(channels).length > 0) tests[name] = { channels };
      else delete tests[name];
    }
    return { schemaVersion: CASSETTE_SCHEMA_VERSION, tests };
  }

  /** Writes `content` when it differs from the file; true when the file changed. */
  private write(content: CassetteFileContent): boolean {
    const empty = Object.keys(content.tests).length === 0;
    if (empty) {
      if (this.loadedText === null || !existsSync(this.file)) return false;
      rmSync(this.file, { force: true });
      return true;
    }
    const text = serializeCassette(content);
    if (text === this.loadedText) return false;
    writeCassetteFile(this.file, text);
    return true;
  }

  /**
   * The file's content, read on first use. A file this version cannot read is an error naming it
   * and the fix, except under `--update-cassettes` (mode `record`), which replaces it.
   */
  private content(): CassetteFileContent | null {
    if (this.loaded !== undefined) return this.loaded;
    try {
      const read = readCassetteFile(this.file, this.options.testPath);
      this.loaded = read?.content ?? null;
      this.loadedText = read?.text ?? null;
    } catch (error) {
      const { update, mode } = this.options.settings;
      if (!(error instanceof M3Error) || error.code !== 'cassette_file_invalid' || !update || mode !== 'record')
        throw error;
      this.loaded = null;
      this.loadedText = '';
    }
    return this.loaded;
  }
}

function exchangeCount(entry: CassetteTestEntry): number {
  let n = 0;
  for (const exchanges of Object.values(entry.channels)) n += exchanges.length;
  return n;
}
