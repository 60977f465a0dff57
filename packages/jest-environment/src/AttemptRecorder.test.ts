import * as fs from 'node:fs';
import { InMemoryExecutionStore, Redactor } from '@sf-m3/core';
import { newId } from '@sf-m3/core/internal';
import { AttemptRecorder, MISSING_SUITE_MESSAGE } from './AttemptRecorder';
import type { AttemptRecorderOptions } from './AttemptRecorder';
import type { BridgedKit, KitFactoryOptions } from './runtimeBridge';
import { RunStateDir } from './RunStateDir';
import type { DescribeBlockLike, TestEntryLike } from './testIdentity';

const root: DescribeBlockLike = { name: 'ROOT_DESCRIBE_BLOCK' };

function block(name: string, parent: DescribeBlockLike = root): DescribeBlockLike {
  return { name, parent };
}

function testEntry(
  name: string,
  parent: DescribeBlockLike,
): TestEntryLike & { invocations: number; duration: number | null } {
  return { name, parent, errors: [], invocations: 1, duration: null };
}

class FakeKit implements BridgedKit {
  readonly redactor = new Redactor(['sk-canary-123']);
  closed = 0;
  failures: ReturnType<BridgedKit['requiredFailures']> = [];
  constructor(readonly options: KitFactoryOptions) {}
  get caseId(): string {
    return this.options.caseId;
  }
  executionIds(): string[] {
    return ['exec-1'];
  }
  requiredFailures() {
    return this.failures;
  }
  async close(): Promise<void> {
    this.closed += 1;
  }
}

function setup(overrides: Partial<AttemptRecorderOptions> = {}) {
  const store = new InMemoryExecutionStore();
  const kitStore = new InMemoryExecutionStore();
  const kits: FakeKit[] = [];
  const stateDir = RunStateDir.create();
  const runId = newId('run');
  const recorder = new AttemptRecorder({
    runId,
    testPath: 'tests/a.test.ts',
    resultsDb: '/tmp/results.sqlite',
    openStore: () => store,
    openKitStore: () => kitStore,
    createKit: (options) => {
      const kit = new FakeKit(options);
      kits.push(kit);
      return kit;
    },
    stateDir,
    ...overrides,
  });
  return { store, kitStore, kits, stateDir, runId, recorder };
}

describe('AttemptRecorder', () => {
  const dirs: RunStateDir[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) dir.remove();
  });

  test('records one attempt per test with suite, case id, outcome and linked executions', async () => {
    const { store, kitStore, kits, stateDir, runId, recorder } = setup();
    dirs.push(stateDir);
    const suiteBlock = block('shipping');
    recorder.bindSuite(suiteBlock, { name: 'shipping', options: {} });
    const test = testEntry('quotes', block('local', suiteBlock));

    await recorder.started(test);
    // Saved open before the body runs: a worker killed now still leaves the test's row (contract §22).
    expect(await store.listAttempts({ runId })).toMatchObject([
      { fullName: 'shipping local quotes', outcome: null, finishedAt: null },
    ]);

    const kit = recorder.currentKit() as FakeKit;
    expect(recorder.currentKit()).toBe(kit);
    expect(kit.options).toMatchObject({ runId, suiteName: 'shipping', caseId: 'shipping::shipping local quotes' });
    expect(kit.options.store).toBe(kitStore);
    test.duration = 12;
    await recorder.finished(test);
    await recorder.flush();

    expect(kits).toHaveLength(1);
    expect(kit.closed).toBe(1);
    expect(recorder.currentKit()).toBeUndefined();
    const [attempt] = await store.listAttempts({ runId });
    const [suite] = await store.listSuites();
    expect(attempt).toMatchObject({
      testPath: 'tests/a.test.ts',
      fullName: 'shipping local quotes',
      caseId: 'shipping::shipping local quotes',
      suiteId: suite.suiteId,
      outcome: 'passed',
      durationMs: 12,
      retryIndex: 0,
      executionIds: ['exec-1'],
      failureMessage: null,
    });
    expect(suite.name).toBe('shipping');
  });

  test('a test without a kit gets none; a failed test stores its redacted failure message', async () => {
    const { store, kits, stateDir, runId, recorder } = setup();
    dirs.push(stateDir);
    const suiteBlock = block('s');
    recorder.bindSuite(suiteBlock, { name: 's', options: {} });
    const test = testEntry('t', suiteBlock);
    await recorder.started(test);
    recorder.currentKit();
    test.errors.push([new Error('\u001b[31mboom with sk-canary-123\u001b[39m'), undefined]);
    await recorder.finished(test);
    await recorder.flush();
    const [attempt] = await store.listAttempts({ runId });
    expect(attempt.outcome).toBe('failed');
    expect(attempt.failureMessage).toBe('boom with [REDACTED]');
    expect(kits).toHaveLength(1);

    const plain = testEntry('no kit', suiteBlock);
    await recorder.started(plain);
    await recorder.finished(plain);
    expect(kits).toHaveLength(1);
  });

  test('the run canaries (--env-file secrets) redact failure messages with or without a kit, and what Jest prints', async () => {
    const { store, kits, stateDir, runId, recorder } = setup({ canaries: ['env-file-secret-5f6a7b'] });
    dirs.push(stateDir);
    const suiteBlock = block('s');
    recorder.bindSuite(suiteBlock, { name: 's', options: {} });
    const withKit = testEntry('with kit', suiteBlock);
    await recorder.started(withKit);
    recorder.currentKit();
    const thrown = new Error('the service refused env-file-secret-5f6a7b');
    withKit.errors.push(thrown);
    await recorder.finished(withKit);
    const noKit = testEntry('no kit', suiteBlock);
    await recorder.started(noKit);
    noKit.errors.push('thrown env-file-secret-5f6a7b');
    await recorder.finished(noKit);
    await recorder.flush();
    // Every kit starts with the run's canaries, so its evidence is redacted with them too.
    expect(kits[0]!.options.canaries).toEqual(['env-file-secret-5f6a7b']);
    const attempts = await store.listAttempts({ runId });
    expect(attempts.map((a) => a.failureMessage).sort()).toEqual([
      'the service refused [REDACTED]',
      'thrown [REDACTED]',
    ]);
    expect(thrown.message).toBe('the service refused [REDACTED]');
    expect(thrown.stack).not.toContain('env-file-secret-5f6a7b');
    expect(noKit.errors).toEqual(['thrown [REDACTED]']);
  });

  test('a retry is a new attempt with the same case id and the next retry index', async () => {
    const { store, stateDir, runId, recorder } = setup();
    dirs.push(stateDir);
    const suiteBlock = block('s');
    recorder.bindSuite(suiteBlock, { name: 's', options: {} });
    const test = testEntry('flaky', suiteBlock);
    await recorder.started(test);
    test.errors.push(new Error('first try'));
    await recorder.finished(test);
    test.errors = [];
    test.invocations = 2;
    await recorder.started(test);
    await recorder.finished(test);
    await recorder.flush();

    const attempts = (await store.listAttempts({ runId })).sort((a, b) => a.retryIndex - b.retryIndex);
    expect(attempts.map((a) => [a.retryIndex, a.outcome, a.caseId])).toEqual([
      [0, 'failed', 's::s flaky'],
      [1, 'passed', 's::s flaky'],
    ]);
    expect(new Set(attempts.map((a) => a.attemptId)).size).toBe(2);
  });

  test('with persistence, a test outside describe.m3 fails with the contract message and is recorded', async () => {
    const { store, stateDir, runId, recorder } = setup();
    dirs.push(stateDir);
    const test = testEntry('bare', block('plain describe'));
    await recorder.started(test);
    expect(test.errors).toHaveLength(1);
    expect((test.errors[0] as Error).message).toBe(`plain describe bare: ${MISSING_SUITE_MESSAGE}`);
    await recorder.finished(test);
    await recorder.flush();
    const [attempt] = await store.listAttempts({ runId });
    expect(attempt).toMatchObject({ outcome: 'failed', suiteId: null });
    expect(attempt.failureMessage).toContain(
      "m3 results are being saved, so this test needs a suite: wrap it in describe.m3('<suite name>', ...)",
    );
  });

  test('without persistence, suites are optional and nothing is written', async () => {
    const openStore = jest.fn(() => new InMemoryExecutionStore());
    const openKitStore = jest.fn(() => new InMemoryExecutionStore());
    const { stateDir, recorder, kits } = setup({ resultsDb: null, openStore, openKitStore });
    dirs.push(stateDir);
    const test = testEntry('bare', root);
    await recorder.started(test);
    expect(test.errors).toEqual([]);
    recorder.currentKit();
    await recorder.finished(test);
    await recorder.notRun(testEntry('later', root), 'todo');
    expect(openStore).not.toHaveBeenCalled();
    expect(openKitStore).not.toHaveBeenCalled();
    expect(kits[0].options.store).toBeUndefined();
    expect(kits[0].options.caseId).toBe('bare');
  });

  test('skipped and todo tests are recorded without a kit', async () => {
    const { store, kits, stateDir, runId, recorder } = setup();
    dirs.push(stateDir);
    const suiteBlock = block('s');
    recorder.bindSuite(suiteBlock, { name: 's', options: {} });
    await recorder.notRun(testEntry('skipped one', suiteBlock), 'skipped');
    await recorder.notRun(testEntry('todo one', root), 'todo');
    await recorder.flush();
    const attempts = (await store.listAttempts({ runId })).sort((a, b) => a.fullName.localeCompare(b.fullName));
    expect(attempts.map((a) => [a.fullName, a.outcome, a.suiteId === null])).toEqual([
      ['s skipped one', 'skipped', false],
      ['todo one', 'todo', true],
    ]);
    expect(kits).toHaveLength(0);
    expect(recorder.testCount).toBe(2);
  });

  test('required failures seen by the kit are reported to the run, even when the test passed', async () => {
    const { stateDir, recorder, store, runId } = setup();
    dirs.push(stateDir);
    const suiteBlock = block('s');
    recorder.bindSuite(suiteBlock, { name: 's', options: {} });
    const test = testEntry('caught', suiteBlock);
    await recorder.started(test);
    const kit = recorder.currentKit() as FakeKit;
    kit.failures = [{ evaluationId: 'eval-1', evaluator: 'project.answer.v1', status: 'failed', rationale: 'wrong' }];
    await recorder.finished(test);
    await recorder.flush();
    expect(stateDir.read()).toEqual([
      {
        kind: 'required_failure',
        evaluationId: 'eval-1',
        evaluator: 'project.answer.v1',
        status: 'failed',
        rationale: 'wrong',
        testPath: 'tests/a.test.ts',
        fullName: 's caught',
      },
    ]);
    const [attempt] = await store.listAttempts({ runId });
    expect(attempt.outcome).toBe('passed');
  });

  test('an attempt that cannot be saved reports the run incomplete', async () => {
    const store = new InMemoryExecutionStore();
    store.saveAttempt = async () => {
      throw new Error('disk full');
    };
    const { stateDir, recorder } = setup({ openStore: () => store });
    dirs.push(stateDir);
    const suiteBlock = block('s');
    recorder.bindSuite(suiteBlock, { name: 's', options: {} });
    const test = testEntry('t', suiteBlock);
    await recorder.started(test);
    await recorder.finished(test);
    await recorder.close();
    expect(test.errors).toHaveLength(1);
    const reports = stateDir.read();
    expect(reports.length).toBeGreaterThan(0);
    for (const report of reports) {
      expect(report).toEqual({ kind: 'persistence_error', testPath: 'tests/a.test.ts', message: 'disk full' });
    }
  });

  test('a suite that cannot be registered fails the test before it runs', async () => {
    const store = new InMemoryExecutionStore();
    store.registerSuite = async () => {
      throw new Error('database is locked');
    };
    const { stateDir, recorder } = setup({ openStore: () => store });
    dirs.push(stateDir);
    const suiteBlock = block('s2');
    recorder.bindSuite(suiteBlock, { name: 's2', options: {} });
    const test = testEntry('t', suiteBlock);
    await recorder.started(test);
    expect((test.errors[0] as Error).message).toBe("m3 could not save this test's results: database is locked");
    expect(stateDir.read().map((r) => r.kind)).toEqual(['persistence_error']);
  });

  test('close() closes kits left open and the kit store, leaving the shared record store open', async () => {
    const store = new InMemoryExecutionStore();
    const kitStore = new InMemoryExecutionStore();
    const close = jest.spyOn(store, 'close');
    const closeKitStore = jest.spyOn(kitStore, 'close');
    const { stateDir, recorder } = setup({ openStore: () => store, openKitStore: () => kitStore });
    dirs.push(stateDir);
    const suiteBlock = block('s');
    recorder.bindSuite(suiteBlock, { name: 's', options: {} });
    await recorder.started(testEntry('t', suiteBlock));
    const kit = recorder.currentKit() as FakeKit;
    await recorder.close();
    expect(kit.closed).toBe(1);
    expect(close).not.toHaveBeenCalled();
    expect(closeKitStore).toHaveBeenCalledTimes(1);
    expect(fs.existsSync(stateDir.dir)).toBe(true);
  });
});
