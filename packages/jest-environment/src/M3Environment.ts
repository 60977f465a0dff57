import * as path from 'node:path';
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import type { Circus } from '@jest/types';
import type { ExecutionStore } from '@sf-m3/core';
import { TEMP_DIR_ENV, TOOL_LISTING_MEMORY, toolListingMemory, M3Error, Redactor } from '@sf-m3/core/internal';
import { TestEnvironment as NodeEnvironment } from 'jest-environment-node';
import { AttemptRecorder } from './AttemptRecorder';
import { CassetteLifecycle } from './cassettes/CassetteLifecycle';
import { type FileAsyncLocalStorages, trackFileAsyncLocalStorages } from './fileAsyncLocalStorages';
import { createDescribeM3 } from './describeM3';
import { createDescribeM3Fuzz } from './describeM3Fuzz';
import type { DeclaredSuite, JestDescribeLike } from './describeM3';
import { m3KitOutsideTestError } from './m3KitOutsideTest';
import { openPersistedStore, resolvePersistence } from './persistenceConfig';
import { runCanaries } from './runCanaries';
import { readRunContext } from './runContext';
import { runtimeOf } from './runtimeBridge';
import type { M3Runtime } from './runtimeBridge';
import { RunStateDir } from './RunStateDir';
import { createTestM3 } from './testM3';
import type { DeclaredCase, JestTestLike, SelectionOverrides } from './testM3';
import { workerTempDir } from './workerTempDir';

/** Told when the setup file that builds kits and stores inside the test sandbox did not run. */
const SETUP_FILE_MISSING =
  "sf-m3's setup file did not run, so m3Kit and saved results are unavailable: use preset 'sf-m3', " +
  "or add require.resolve('@sf-m3/jest-environment/dist/setupFramework.js') to setupFilesAfterEnv";

let shared: { readonly runId: string; readonly dbPath: string; readonly store: ExecutionStore } | null = null;

/**
 * One connection per worker, run and database for attempts and suites, kept open across the
 * worker's test files: closing the last connection makes SQLite checkpoint its WAL, which would
 * otherwise cost every file. Committed rows are durable without a close; a new run (watch mode)
 * or database closes the old connection.
 */
function workerStore(runId: string, dbPath: string): ExecutionStore {
  if (shared !== null && shared.runId === runId && shared.dbPath === dbPath) return shared.store;
  void shared?.store.close().catch(() => undefined);
  shared = { runId, dbPath, store: openPersistedStore(dbPath) };
  return shared.store;
}

/**
 * The sf-m3 Jest environment: Node's environment plus `describe.m3`, the `m3Kit` global (a fresh
 * kit per test, closed when the test ends) and one attempt record per test try. Run-record logic
 * lives in `AttemptRecorder`; this class only routes jest-circus events to it.
 */
export default class M3Environment extends NodeEnvironment {
  private readonly recorder: AttemptRecorder;
  private readonly runtime: M3Runtime;
  private readonly overrides: SelectionOverrides;
  /** The CLI's `--protocol` revisions: every `describe.m3` suite runs once per revision. */
  private readonly protocolsOverride: readonly string[] | null;
  private pendingSuite: DeclaredSuite | null = null;
  private pendingCase: DeclaredCase | null = null;
  private circusState: Circus.State | null = null;
  private sawSetup = false;
  private sawRunFinish = false;
  private readonly stateDir: RunStateDir | null;
  private readonly testPath: string;
  private clearRunningMark: (() => void) | null = null;
  /** The file's cassettes (contract §24): a book opened on first use, finished when the file ends. */
  private readonly cassettes: CassetteLifecycle;
  /** False once a test of the file was skipped: then no cassette entry counts as obsolete. */
  private everyTestRan = true;
  private readonly testNamePattern: string | null;
  /** Undoes Jest 30's leak of one AsyncLocalStorage per file, which slows each later file of the worker. */
  private readonly asyncLocalStorages: FileAsyncLocalStorages;

  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    const { projectConfig } = config;
    const { resultsDb } = resolvePersistence({
      env: process.env,
      testEnvironmentOptions: projectConfig.testEnvironmentOptions,
      rootDir: projectConfig.rootDir,
      cwd: process.cwd(),
    });
    const run = readRunContext(process.env);
    this.overrides = { servers: run.servers, harness: run.harness, trials: run.trials };
    this.protocolsOverride = run.protocols;
    const runtime = runtimeOf(this.global);
    this.runtime = runtime;
    this.testPath = path.relative(projectConfig.rootDir, context.testPath).split(path.sep).join('/');
    this.stateDir = run.stateDir === null ? null : new RunStateDir(run.stateDir);
    const canaries = runCanaries(process.env, run.servers);
    this.testNamePattern = config.globalConfig.testNamePattern ?? null;
    const stateDir = this.stateDir;
    const runRedactor = new Redactor(canaries);
    // Checks M3_CASSETTES and the project's option now: a bad mode fails the file, naming where it was set.
    this.cassettes = new CassetteLifecycle({
      testFile: context.testPath,
      testPath: this.testPath,
      env: process.env,
      ci: config.globalConfig.ci,
      project: (projectConfig.testEnvironmentOptions as Record<string, unknown> | undefined)?.cassettes,
      openBook: (request) => {
        if (runtime.openCassetteBook === undefined) throw new M3Error('setup_missing', SETUP_FILE_MISSING);
        return runtime.openCassetteBook(request);
      },
      report: (report) => stateDir?.write(report),
      redact: (text) => runRedactor.redactText(text),
    });
    // The sandbox's kits make capture files and agent homes there; the worker removes it however it ends.
    this.global.process.env[TEMP_DIR_ENV] = workerTempDir(process.env);
    // One memory of tool listings per worker, not per file: silent_redefinition compares a server's
    // tools with what earlier files of this worker listed (contract §25).
    Object.defineProperty(this.global, TOOL_LISTING_MEMORY, { value: toolListingMemory(), configurable: true });
    this.recorder = new AttemptRecorder({
      runId: run.runId,
      testPath: this.testPath,
      resultsDb,
      stateDir: this.stateDir,
      canaries,
      cassettesFor: (fullName, suite) =>
        this.cassettes.scopeFor(
          fullName,
          suite === null ? null : { name: suite.name, cassettes: suite.options.cassettes },
        ),
      // Attempts are written from this (outer) realm: its modules load once per worker, not per file.
      openStore: () => workerStore(run.runId, resultsDb as string),
      openKitStore: () => {
        if (runtime.createStore === undefined || resultsDb === null) {
          throw new M3Error('setup_missing', SETUP_FILE_MISSING);
        }
        return runtime.createStore(resultsDb);
      },
      createKit: (options) => {
        if (runtime.createKit === undefined) throw new M3Error('setup_missing', SETUP_FILE_MISSING);
        return runtime.createKit(options);
      },
    });
    runtime.currentKit = () => this.recorder.currentKit();
    Object.defineProperty(this.global, 'm3Kit', {
      // Outside a test there is no kit: say so (contract §11) instead of handing out `undefined`.
      get: () => this.recorder.currentKit() ?? throwError(m3KitOutsideTestError(runtime)),
      configurable: true,
      enumerable: false,
    });
    // Last, so a constructor that throws (Jest then skips teardown) leaves nothing tracked.
    this.asyncLocalStorages = trackFileAsyncLocalStorages();
  }

  /** Routes jest-circus events; returns a promise only for the events Jest awaits. */
  handleTestEvent(event: Circus.Event, state: Circus.State): void | Promise<void> {
    switch (event.name) {
      case 'setup':
        this.sawSetup = true;
        this.circusState = state;
        this.installGlobals(event.runtimeGlobals);
        return;
      case 'add_test':
        if (this.pendingCase !== null) {
          const added = state.currentDescribeBlock.children.at(-1);
          if (added?.type === 'test') this.recorder.bindCase(added, this.pendingCase);
        }
        return;
      case 'start_describe_definition':
        if (this.pendingSuite !== null) {
          this.recorder.bindSuite(state.currentDescribeBlock, this.pendingSuite);
          this.pendingSuite = null;
        }
        return;
      case 'test_started':
        return this.recorder.started(event.test);
      case 'test_done':
        return this.recorder.finished(event.test);
      case 'test_skip':
        this.everyTestRan = false;
        return this.recorder.notRun(event.test, 'skipped');
      case 'test_todo':
        return this.recorder.notRun(event.test, 'todo');
      case 'run_finish':
        this.sawRunFinish = true;
        return this.finishFile(state);
      default:
        return;
    }
  }

  /**
   * The file's end: the cassette book is finished (obsolete entries count only when every test of
   * the file was asked to run: no `-t`, no `.only`, nothing skipped), then the errors outside any
   * test are redacted and reported (a cassette that cannot be written is one of them).
   */
  private async finishFile(state: Circus.State): Promise<void> {
    const fullRun =
      this.everyTestRan && !state.hasFocusedTests && (this.testNamePattern === null || this.testNamePattern === '');
    try {
      await this.cassettes.finish(fullRun);
    } catch (error) {
      state.unhandledErrors.push(error);
    }
    // Jest turns these into the file's failure after this event: redact them first.
    this.recorder.redactErrorsOutsideTests(state.unhandledErrors);
    if (state.unhandledErrors.length > 0) {
      this.recorder.reportFileError(`${state.unhandledErrors.length} error(s) outside any test (e.g. in afterAll)`);
    }
  }

  /** Marks the file running for the run: a worker that dies before teardown leaves the mark (contract §22). */
  override async setup(): Promise<void> {
    await super.setup();
    this.clearRunningMark = this.stateDir?.startFile(this.testPath) ?? null;
  }

  override async teardown(): Promise<void> {
    if (this.sawSetup && !this.sawRunFinish) {
      this.recorder.reportFileError('the test file stopped before its tests ran (see the error Jest printed)');
    }
    try {
      await this.recorder.close();
      // A file stopped before its end still writes what its tests recorded (nothing counts obsolete).
      await this.cassettes.finish(false).catch((error: unknown) => {
        this.recorder.reportFileError(`its cassette could not be finished: ${(error as Error).message}`);
      });
    } finally {
      // Cleared once the file's attempts are saved (until then a death still loses them).
      this.clearRunningMark?.();
      await super.teardown();
      this.asyncLocalStorages.release();
    }
  }

  private installGlobals(
    globals: Circus.Event & { name: 'setup' } extends { runtimeGlobals: infer G } ? G : never,
  ): void {
    const describeM3 = createDescribeM3(
      globals.describe as unknown as JestDescribeLike,
      (suite) => {
        this.pendingSuite = suite;
      },
      this.protocolsOverride,
    );
    const fuzz = createDescribeM3Fuzz({
      describeM3,
      test: globals.test as unknown as JestTestLike,
      fuzz: () => {
        if (this.runtime.loadFuzz === undefined) throw new M3Error('setup_missing', SETUP_FILE_MISSING);
        return this.runtime.loadFuzz();
      },
      currentKit: () => this.recorder.currentKit(),
      testPath: this.testPath,
    });
    Object.defineProperty(describeM3, 'fuzz', { value: fuzz, enumerable: true });
    Object.defineProperty(globals.describe, 'm3', { value: describeM3, configurable: true, enumerable: false });
    this.runtime.describeM3 = describeM3;
    const testM3 = createTestM3({
      test: globals.test as unknown as JestTestLike,
      options: () => this.recorder.suiteOfBlock(this.circusState?.currentDescribeBlock)?.options ?? {},
      suiteName: () => this.recorder.suiteOfBlock(this.circusState?.currentDescribeBlock)?.name ?? null,
      overrides: this.overrides,
      buildServer: (selection) => {
        if (this.runtime.createServer === undefined) throw new M3Error('setup_missing', SETUP_FILE_MISSING);
        return this.runtime.createServer(selection);
      },
      declareCase: (declared) => {
        this.pendingCase = declared;
      },
      currentKit: () => this.recorder.currentKit(),
    });
    for (const target of new Set<object>([globals.test, globals.it])) {
      Object.defineProperty(target, 'm3', { value: testM3, configurable: true, enumerable: false });
    }
    this.runtime.testM3 = testM3;
    this.runtime.expect = globals.expect as unknown as M3Runtime['expect'];
  }
}

function throwError(error: Error): never {
  throw error;
}

/** Jest also accepts a named `TestEnvironment` export. */
export const TestEnvironment = M3Environment;
