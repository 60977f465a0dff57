import { type AttemptRecord, type EvaluationResult, InMemoryExecutionStore } from '@sf-m3/core';
import { newId } from '@sf-m3/core/internal';
import { EMPTY_LABELS } from '@sf-m3/test-utils/store';
import {
  anyTestFailed,
  countAttempts,
  finishRun,
  mergeRequiredFailures,
  runFailureMessage,
  runProblems,
  storedMissingRequired,
  storedRequiredFailures,
} from './runLifecycle';
import type { CassetteFileReport, RequiredFailureReport } from './RunStateDir';
import { isRunProblemReport } from './RunStateDir';

function attempt(fullName: string, outcome: AttemptRecord['outcome'], retryIndex = 0): AttemptRecord {
  return {
    attemptId: newId('attempt'),
    runId: 'run-x',
    testPath: 'a.test.ts',
    fullName,
    caseId: fullName,
    suiteId: 1,
    outcome,
    durationMs: 1,
    failureMessage: null,
    retryIndex,
    executionIds: [],
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: null,
  };
}

const failure = (evaluationId: string, testPath = 'a.test.ts'): RequiredFailureReport => ({
  kind: 'required_failure',
  evaluationId,
  evaluator: 'project.answer.v1',
  status: 'failed',
  rationale: 'answer was\nwrong',
  testPath,
  fullName: 's answers',
});

const base = {
  runId: 'run-x',
  label: null,
  startedAt: 's',
  finishedAt: null,
  status: 'running' as const,
  argv: [],
  counts: { passed: 0, failed: 0, skipped: 0, todo: 0 },
};

describe('run lifecycle', () => {
  test('counts attempts by outcome, skipping unfinished ones', () => {
    expect(
      countAttempts([attempt('a', 'passed'), attempt('b', 'failed'), attempt('c', 'todo'), attempt('d', null)]),
    ).toEqual({ passed: 1, failed: 1, skipped: 0, todo: 1 });
  });

  test('a test fails the run only when its last try failed', () => {
    expect(anyTestFailed([attempt('a', 'failed', 0), attempt('a', 'passed', 1)])).toBe(false);
    expect(anyTestFailed([attempt('a', 'passed', 0), attempt('b', 'failed', 1)])).toBe(true);
    expect(anyTestFailed([attempt('a', null)])).toBe(true);
  });

  test('finishRun sets status and counts', () => {
    expect(finishRun(base, [attempt('a', 'passed')], false, 'f')).toMatchObject({ status: 'passed', finishedAt: 'f' });
    expect(finishRun(base, [attempt('a', 'passed')], true, 'f').status).toBe('failed');
  });

  test('a cassette report is no problem: it never fails the run (contract §24)', () => {
    const cassette: CassetteFileReport = {
      kind: 'cassette_file',
      testPath: 'tests/agents.test.js',
      replayed: 2,
      recorded: 0,
      obsolete: 1,
      obsoleteTests: ['agents old'],
      written: false,
      removed: false,
    };
    expect(runProblems([cassette], [])).toEqual([]);
    expect(isRunProblemReport(cassette)).toBe(false);
    expect(isRunProblemReport(failure('e1'))).toBe(true);
    expect(runFailureMessage([], [cassette])).toBeNull();
  });

  test('a file that did not finish or could not run fails the run and is named on it', () => {
    const problems = runProblems(
      [failure('e1'), { kind: 'file_error', testPath: 'tests/broken.test.js', message: 'SyntaxError' }],
      [{ testPath: 'tests/killed.test.js', pid: 4242 }],
    );
    expect(problems).toEqual([
      {
        kind: 'file_error',
        testPath: 'tests/broken.test.js',
        message: 'test file tests/broken.test.js could not run to the end: SyntaxError',
      },
      {
        kind: 'file_unfinished',
        testPath: 'tests/killed.test.js',
        message: 'test file tests/killed.test.js did not finish: its worker (pid 4242) was killed or crashed',
      },
    ]);
    // Every attempt passed, yet the run is failed and says why.
    expect(finishRun(base, [attempt('a', 'passed')], false, 'f', problems)).toMatchObject({
      status: 'failed',
      problems,
    });
    expect(finishRun(base, [attempt('a', 'passed')], false, 'f')).not.toHaveProperty('problems');
  });

  test('merges worker reports and stored failures once per evaluation', () => {
    const merged = mergeRequiredFailures([failure('eval-1')], [failure('eval-1', ''), failure('eval-2', '')]);
    expect(merged.map((f) => [f.evaluationId, f.testPath])).toEqual([
      ['eval-1', 'a.test.ts'],
      ['eval-2', ''],
    ]);
  });

  test('the failure message names evaluator, status and test', () => {
    expect(runFailureMessage([], [])).toBeNull();
    expect(runFailureMessage([failure('eval-1')], [])).toBe(
      'm3: 1 required evaluation(s) did not pass, so the run fails:\n' +
        '  - project.answer.v1 failed in "s answers" (a.test.ts): answer was wrong',
    );
    expect(runFailureMessage([], [{ kind: 'persistence_error', testPath: 'b.test.ts', message: 'locked' }])).toContain(
      '1 result(s) could not be saved',
    );
  });

  test('finds required failures in the store, latest row per lineage', async () => {
    const store = new InMemoryExecutionStore();
    const runId = newId('run');
    const row = (evaluator: string, status: EvaluationResult['status'], required: boolean): EvaluationResult => ({
      evaluationId: newId('eval'),
      evaluator,
      status,
      score: null,
      rationale: 'r',
      metrics: {},
      required,
      executionId: null,
      turnId: null,
      caseId: 'case-1',
      subjectDigest: `digest-${evaluator}`,
      createdAt: new Date().toISOString(),
      provenance: {},
      metadata: {},
    });
    const labels = { ...EMPTY_LABELS, runId, suiteName: 's', caseId: 'case-1' };
    await store.saveEvaluation({ result: row('advisory', 'failed', false), labels });
    await store.saveEvaluation({ result: row('required.ok', 'passed', true), labels });
    const bad = row('required.bad', 'error', true);
    await store.saveEvaluation({ result: bad, labels });
    const found = await storedRequiredFailures(store, runId);
    expect(found.map((f) => [f.evaluator, f.status, f.fullName])).toEqual([['required.bad', 'error', 'case-1']]);
  });

  test('finds required evaluators a finished execution never produced', async () => {
    const store = new InMemoryExecutionStore();
    const runId = newId('run');
    const execution = (outcome: 'completed' | null) => ({
      executionId: newId('exec'),
      runId,
      suiteName: 's',
      caseId: 'case-1',
      attemptId: null,
      kind: 'direct' as const,
      spec: {},
      servers: [],
      labels: {
        runId,
        suiteName: 's',
        caseId: 'case-1',
        server: null,
        transport: null,
        harness: null,
        model: null,
        trial: null,
        matrixId: null,
        metadata: {},
      },
      requiredEvaluators: ['project.required.v1'],
      createdAt: new Date().toISOString(),
      finishedAt: outcome === null ? null : new Date().toISOString(),
      outcome,
      snapshot: {},
    });
    await store.createExecution(execution('completed'));
    await store.createExecution(execution(null));
    expect(await storedMissingRequired(store, runId)).toEqual([{ evaluator: 'project.required.v1', missingCount: 1 }]);
    expect(runFailureMessage([], [], [{ evaluator: 'project.required.v1', missingCount: 1 }])).toBe(
      'm3: 1 required evaluator(s) never ran on finished executions, so the run fails:\n' +
        '  - project.required.v1 missing for 1 execution(s)',
    );
  });
});
