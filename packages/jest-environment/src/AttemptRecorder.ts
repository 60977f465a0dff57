import type { AttemptOutcome, AttemptRecord, ExecutionStore, SuiteRecord } from '@sf-m3/core';
import { newId, M3Error, Redactor } from '@sf-m3/core/internal';
import type { DeclaredSuite } from './describeM3';
import type { DeclaredCase } from './testM3';
import { formatFailureMessage, redactTestErrors } from './failureMessage';
import type { BridgedKit, KitFactoryOptions } from './runtimeBridge';
import type { RunStateDir } from './RunStateDir';
import { caseIdOf, fullNameOf } from './testIdentity';
import type { DescribeBlockLike, TestEntryLike } from './testIdentity';

/** contract §11: the text a persisted test without a suite fails with (after the test's name). */
export const MISSING_SUITE_MESSAGE =
  "m3 results are being saved, so this test needs a suite: wrap it in describe.m3('<suite name>', ...)";

/** What one test file's recorder needs from its environment. */
export interface AttemptRecorderOptions {
  readonly runId: string;
  /** Test path relative to the project's root, with `/` separators. */
  readonly testPath: string;
  /** Absolute database path, or `null` when persistence is off. */
  readonly resultsDb: string | null;
  /**
   * The store attempts and suites are saved in; called at most once, only when persistence is on.
   * Its owner closes it (the environment shares one per worker and run).
   */
  readonly openStore: () => ExecutionStore;
  /**
   * Opens the store the file's kits save executions and evaluations in (built from the sandbox's
   * modules, so what it reads back is made of the classes the test sees); at most once per file.
   */
  readonly openKitStore: () => ExecutionStore;
  /** Builds a test's kit (from the sandbox's modules). */
  readonly createKit: (options: KitFactoryOptions) => BridgedKit;
  /** Where required failures and run problems are reported; `null` without global setup. */
  readonly stateDir: RunStateDir | null;
  /**
   * The run's redaction canaries (`runCanaries`: `--env-file` secrets, secret-looking env values,
   * the CLI's server secrets): failure messages and reports are redacted with them, and every kit
   * starts with them. Default none.
   */
  readonly canaries?: readonly string[];
  /**
   * The cassette scope of a test attempt (contract §24), made when its kit is; undefined when the
   * test runs without cassettes. Default none.
   */
  readonly cassettesFor?: (fullName: string, suite: DeclaredSuite | null) => unknown;
  readonly clock?: () => Date;
}

interface OpenAttempt {
  readonly attemptId: string;
  readonly suite: DeclaredSuite | null;
  readonly suiteId: number | null;
  readonly caseId: string;
  readonly fullName: string;
  readonly retryIndex: number;
  readonly startedAt: string;
  readonly labels: DeclaredCase['labels'] | Record<string, never>;
  kit: BridgedKit | null;
}

/** Suites this worker already registered, per run and database: `registerSuite` runs once per name. */
const registeredSuites = new Map<string, Promise<SuiteRecord>>();

/**
 * Turns one file's jest-circus test events into attempts: one per try of a test (a retry is a new
 * attempt), skipped and todo tests recorded without a kit, a fresh kit per running test closed when
 * it ends, and required failures reported to the run.
 */
export class AttemptRecorder {
  private readonly suites = new WeakMap<DescribeBlockLike, DeclaredSuite>();
  private readonly cases = new WeakMap<TestEntryLike, DeclaredCase>();
  private readonly open = new Map<TestEntryLike, OpenAttempt>();
  private readonly runRedactor: Redactor;
  private store: ExecutionStore | null = null;
  private kitStore: ExecutionStore | null = null;
  private current: OpenAttempt | null = null;
  /** Attempt writes in flight: not awaited per test, so the store batches them into few transactions. */
  private readonly writes = new Set<Promise<void>>();
  private testsSeen = 0;

  constructor(private readonly options: AttemptRecorderOptions) {
    this.runRedactor = new Redactor(options.canaries ?? []);
  }

  /** True when attempts are saved. */
  get persistent(): boolean {
    return this.options.resultsDb !== null;
  }

  /** How many tests (run, skipped or todo) this file reached. */
  get testCount(): number {
    return this.testsSeen;
  }

  /** Binds a `describe.m3` suite to the describe block Jest created for it. */
  bindSuite(block: DescribeBlockLike, suite: DeclaredSuite): void {
    this.suites.set(block, suite);
  }

  /** Binds a `test.m3` expansion to the case it shares with its siblings. */
  bindCase(test: TestEntryLike, declared: DeclaredCase): void {
    this.cases.set(test, declared);
  }

  /** The closest `describe.m3` suite around a test. */
  suiteOf(test: TestEntryLike): DeclaredSuite | null {
    return this.suiteOfBlock(test.parent);
  }

  /** The closest `describe.m3` suite at or above a describe block. */
  suiteOfBlock(start: DescribeBlockLike | undefined): DeclaredSuite | null {
    for (let block: DescribeBlockLike | undefined = start; block; block = block.parent) {
      const suite = this.suites.get(block);
      if (suite) return suite;
    }
    return null;
  }

  /** The kit of the test running now, created on first use; `undefined` outside a test. */
  currentKit(): BridgedKit | undefined {
    const attempt = this.current;
    if (attempt === null) return undefined;
    if (attempt.kit !== null) return attempt.kit;
    const cassettes = this.options.cassettesFor?.(attempt.fullName, attempt.suite);
    attempt.kit = this.options.createKit({
      store: this.persistent ? (this.kitStore ??= this.options.openKitStore()) : undefined,
      runId: this.options.runId,
      suiteName: attempt.suite?.name ?? null,
      caseId: attempt.caseId,
      attemptId: attempt.attemptId,
      recordChecks: true,
      labels: attempt.labels,
      canaries: this.runRedactor.canaryValues(),
      ...(attempt.suite?.protocol !== undefined && { protocol: attempt.suite.protocol }),
      ...(cassettes !== undefined && { cassettes }),
    });
    return attempt.kit;
  }

  /**
   * `test_started`: opens the attempt (saved with no outcome yet when persisted); a persisted test
   * outside any suite is failed before it runs.
   */
  async started(test: TestEntryLike): Promise<void> {
    this.testsSeen += 1;
    const fullName = fullNameOf(test);
    const suite = this.suiteOf(test);
    let suiteId: number | null = null;
    if (this.persistent && suite === null) {
      test.errors.push(usageError('missing_suite', `${fullName}: ${MISSING_SUITE_MESSAGE}`));
    } else if (this.persistent && suite !== null) {
      suiteId = await this.guard(test, () => this.registerSuite(suite.name));
    }
    const attempt = this.newAttempt(test, fullName, suite, suiteId);
    this.open.set(test, attempt);
    this.current = attempt;
    // Saved open before the test body runs, so a worker killed mid-test leaves a row the run's
    // closer finishes as interrupted (contract §22); `finished` replaces it by attempt id.
    if (this.persistent) await this.guard(test, () => this.save(attempt, null, null, null, []));
  }

  /** `test_done`: closes the kit (reaping what the test left open) and finishes the attempt. */
  async finished(test: TestEntryLike): Promise<void> {
    const attempt = this.open.get(test);
    if (attempt === undefined) return;
    this.open.delete(test);
    if (this.current === attempt) this.current = null;
    const kit = attempt.kit;
    let executionIds: string[] = [];
    if (kit !== null) {
      try {
        await kit.close();
      } catch (error) {
        test.errors.push(error);
      }
      executionIds = kit.executionIds();
      this.reportRequiredFailures(attempt, kit);
    }
    const outcome: AttemptOutcome = test.errors.length > 0 ? 'failed' : 'passed';
    const redact = (text: string) => this.runRedactor.redactText(kit?.redactor.redactText(text) ?? text);
    // Rewritten where Jest reads them, so Jest's own report of the failure is redacted too.
    redactTestErrors(test.errors, redact);
    const message = formatFailureMessage(test.errors, redact);
    if (this.persistent) this.saveLater(attempt, outcome, test.duration ?? null, message, executionIds);
  }

  /** `test_skip` / `test_todo`: recorded without a kit; never needs a suite because nothing runs. */
  async notRun(test: TestEntryLike, outcome: 'skipped' | 'todo'): Promise<void> {
    this.testsSeen += 1;
    if (!this.persistent) return;
    const fullName = fullNameOf(test);
    const suite = this.suiteOf(test);
    try {
      const suiteId = suite === null ? null : await this.registerSuite(suite.name);
      this.saveLater(this.newAttempt(test, fullName, suite, suiteId), outcome, null, null, []);
    } catch (error) {
      this.reportProblem('persistence_error', error);
    }
  }

  /**
   * Redacts errors outside any test (an `afterAll` that threw, an uncaught error no test owns) with
   * the run's canaries, in place where Jest reads them (`state.unhandledErrors`), so what Jest prints
   * and hands its reporters, and what `m3` reads back from it, holds no secret.
   */
  redactErrorsOutsideTests(errors: unknown[]): void {
    redactTestErrors(errors, (text) => this.runRedactor.redactText(text));
  }

  /** Reports a problem outside any test (a file that did not run to the end) to the run. */
  reportFileError(message: string): void {
    this.options.stateDir?.write({
      kind: 'file_error',
      testPath: this.options.testPath,
      message: this.runRedactor.redactText(message),
    });
  }

  /** Waits for the attempts being saved. */
  async flush(): Promise<void> {
    while (this.writes.size > 0) await Promise.all(this.writes);
  }

  /** Closes whatever kit is still open, waits for the attempts being saved, closes the kit store; idempotent. */
  async close(): Promise<void> {
    for (const [test, attempt] of [...this.open]) {
      this.open.delete(test);
      await attempt.kit?.close().catch(() => undefined);
    }
    this.current = null;
    await this.flush();
    const kitStore = this.kitStore;
    this.kitStore = null;
    this.store = null;
    await kitStore?.close();
  }

  /** A new attempt for one try of `test` (its labels are only read when a kit is created). */
  private newAttempt(
    test: TestEntryLike,
    fullName: string,
    suite: DeclaredSuite | null,
    suiteId: number | null,
  ): OpenAttempt {
    return {
      attemptId: newId('attempt'),
      suite,
      suiteId,
      caseId: this.caseIdOf(test, suite),
      fullName,
      retryIndex: Math.max(0, test.invocations - 1),
      startedAt: this.now(),
      labels: this.cases.get(test)?.labels ?? {},
      kit: null,
    };
  }

  /** `<suite>::<full name>`; `test.m3` expansions use their base title, so they share one case. */
  private caseIdOf(test: TestEntryLike, suite: DeclaredSuite | null): string {
    const declared = this.cases.get(test);
    // A `protocols` suite's `[protocol=REV]` blocks are left out: each revision runs the same case.
    const fullName = fullNameOf(
      declared === undefined ? test : { ...test, name: declared.baseTitle },
      (block) => this.suites.get(block)?.protocol !== undefined,
    );
    return caseIdOf(suite?.name ?? null, fullName);
  }

  private openStore(): ExecutionStore {
    this.store ??= this.options.openStore();
    return this.store;
  }

  private registerSuite(name: string): Promise<number> {
    const key = `${this.options.runId}\u0000${this.options.resultsDb ?? ''}\u0000${name}`;
    let pending = registeredSuites.get(key);
    if (pending === undefined) {
      pending = this.openStore().registerSuite(name);
      registeredSuites.set(key, pending);
      pending.catch(() => registeredSuites.delete(key));
    }
    return pending.then((suite) => suite.suiteId);
  }

  /** Saves a finished attempt without holding up the next test; a failure fails the run at teardown. */
  private saveLater(
    attempt: OpenAttempt,
    outcome: AttemptOutcome,
    durationMs: number | null,
    failureMessage: string | null,
    executionIds: string[],
  ): void {
    const write = this.save(attempt, outcome, durationMs, failureMessage, executionIds).then(
      () => undefined,
      (error: unknown) => this.reportProblem('persistence_error', error),
    );
    this.writes.add(write);
    void write.finally(() => this.writes.delete(write));
  }

  private save(
    attempt: OpenAttempt,
    outcome: AttemptOutcome | null,
    durationMs: number | null,
    failureMessage: string | null,
    executionIds: string[],
  ): Promise<void> {
    const record: AttemptRecord = {
      attemptId: attempt.attemptId,
      runId: this.options.runId,
      testPath: this.options.testPath,
      fullName: attempt.fullName,
      caseId: attempt.caseId,
      suiteId: attempt.suiteId,
      outcome,
      durationMs,
      failureMessage,
      retryIndex: attempt.retryIndex,
      executionIds,
      startedAt: attempt.startedAt,
      finishedAt: outcome === null ? null : this.now(),
    };
    return this.openStore().saveAttempt(record);
  }

  /** Runs a store write; a failure fails the test (its results are not saved) and the run. */
  private async guard<T>(test: TestEntryLike, write: () => Promise<T>): Promise<T | null> {
    try {
      return await write();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      test.errors.push(usageError('persistence_error', `m3 could not save this test's results: ${reason}`));
      this.reportProblem('persistence_error', error);
      return null;
    }
  }

  private reportRequiredFailures(attempt: OpenAttempt, kit: BridgedKit): void {
    for (const failure of kit.requiredFailures()) {
      this.options.stateDir?.write({
        kind: 'required_failure',
        evaluationId: failure.evaluationId,
        evaluator: failure.evaluator,
        status: failure.status,
        rationale: failure.rationale === null ? null : this.runRedactor.redactText(failure.rationale),
        testPath: this.options.testPath,
        fullName: attempt.fullName,
      });
    }
  }

  private reportProblem(kind: 'persistence_error' | 'file_error', error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.options.stateDir?.write({
      kind,
      testPath: this.options.testPath,
      message: this.runRedactor.redactText(message),
    });
  }

  private now(): string {
    return (this.options.clock?.() ?? new Date()).toISOString();
  }
}

/** An error about the test's setup, not its code: Jest prints the message without a stack into sf-m3. */
function usageError(code: string, message: string): M3Error {
  const error = new M3Error(code, message);
  error.stack = `${error.name}: ${message}`;
  return error;
}
