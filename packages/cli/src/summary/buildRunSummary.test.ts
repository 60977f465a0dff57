import { InMemoryExecutionStore, Redactor } from '@sf-m3/core';
import { buildRunSummary, decideVerdict } from './buildRunSummary';
import { seedRun } from './runFixtures.testkit';

const options = {
  redactor: new Redactor(['sk-live-secret-1234']),
  resultsDb: '.m3/executions.sqlite',
  cwd: '/project',
};

describe('buildRunSummary', () => {
  let store: InMemoryExecutionStore;
  beforeEach(() => {
    store = new InMemoryExecutionStore();
  });
  afterEach(async () => {
    await store.close();
  });

  test('an era matrix: tests and evaluation pass rates per MCP revision, a retried test counted by its last try', async () => {
    const text = (revision: string, status: 'passed' | 'failed') => ({
      evaluations: [{ evaluator: 'm3.expect.toHaveText', status }],
      protocolVersion: revision,
    });
    const runId = await seedRun(store, [
      {
        suite: 'release',
        fullName: 'release [protocol=2025-11-25] deploys',
        outcome: 'passed',
        ...text('2025-11-25', 'passed'),
      },
      {
        suite: 'release',
        fullName: 'release [protocol=2026-07-28] deploys',
        outcome: 'failed',
        ...text('2026-07-28', 'failed'),
      },
      {
        suite: 'release',
        fullName: 'release [protocol=2026-07-28] deploys',
        outcome: 'passed',
        retryIndex: 1,
        ...text('2026-07-28', 'passed'),
      },
      {
        suite: 'release',
        fullName: 'release [protocol=2026-07-28] lists',
        outcome: 'failed',
        ...text('2026-07-28', 'failed'),
      },
      { suite: 'plain', fullName: 'plain lists', outcome: 'passed' },
    ]);
    const { summary } = await buildRunSummary(store, { ...options, runId });
    expect(summary.protocols).toEqual({
      revisions: [
        {
          revision: '2025-11-25',
          tests: 1,
          testsPassed: 1,
          testsFailed: 0,
          evaluators: [expect.objectContaining({ evaluator: 'm3.expect.toHaveText', passed: 1, expected: 1 })],
        },
        {
          revision: '2026-07-28',
          tests: 2,
          testsPassed: 1,
          testsFailed: 1,
          evaluators: [expect.objectContaining({ evaluator: 'm3.expect.toHaveText', passed: 1, expected: 3 })],
        },
      ],
    });
    const { summary: plain } = await buildRunSummary(store, {
      ...options,
      runId: await seedRun(store, [{ suite: 'plain', fullName: 'plain lists', outcome: 'passed' }]),
    });
    expect(plain.protocols).toBeNull();
  });

  test('a green run: suites, attempts by outcome, evaluator pass rates with Wilson intervals', async () => {
    const runId = await seedRun(store, [
      {
        suite: 'shipping',
        fullName: 'shipping quotes local',
        outcome: 'passed',
        evaluations: [
          { evaluator: 'm3.expect.toHaveToolCall', status: 'passed' },
          { evaluator: 'm3.expect.toHaveStructuredContent', status: 'passed' },
        ],
      },
      {
        suite: 'shipping',
        fullName: 'shipping quotes regional',
        outcome: 'passed',
        evaluations: [{ evaluator: 'm3.expect.toHaveToolCall', status: 'failed' }],
      },
      { suite: 'orders', fullName: 'orders later', outcome: 'todo' },
      { suite: 'orders', fullName: 'orders skipped', outcome: 'skipped' },
    ]);
    const { summary, attempts } = await buildRunSummary(store, {
      ...options,
      runId,
      jestExit: { code: 0, signal: null },
    });
    // The attempt records it was built from come back with it (feedback.json lists them).
    expect(attempts.map((a) => a.fullName).sort()).toEqual([
      'orders later',
      'orders skipped',
      'shipping quotes local',
      'shipping quotes regional',
    ]);
    expect(summary.verdict).toBe('passed');
    expect(summary.reasons).toEqual([]);
    expect(summary.attempts).toEqual({ total: 4, passed: 2, failed: 0, skipped: 1, todo: 1 });
    expect(summary.suites.map((s) => [s.name, s.attempts.total])).toEqual([
      ['orders', 2],
      ['shipping', 2],
    ]);
    const toolCall = summary.evaluations.find((e) => e.evaluator === 'm3.expect.toHaveToolCall')!;
    expect(toolCall).toMatchObject({ passRate: 0.5, passed: 1, expected: 2, evaluationCount: 2 });
    expect(toolCall.interval![0]).toBeCloseTo(0.0945, 3);
    expect(toolCall.interval![1]).toBeCloseTo(0.9055, 3);
    expect(summary.evaluations.map((e) => e.evaluator)).toEqual([
      'm3.expect.toHaveStructuredContent',
      'm3.expect.toHaveToolCall',
    ]);
  });

  test('a failed test fails the run and is listed with its meaningful line and its whole message, redacted', async () => {
    const failureMessage =
      'expect(received).toHaveStructuredContent(expected)\n\nExpected structuredContent to equal the expected value\n\n' +
      '- Expected  - 1\n+ Received  + 1\n\n  Object {\n-   "key": "sk-live-secret-1234",\n+   "key": "other",\n  }';
    const runId = await seedRun(store, [
      { suite: 'shipping', fullName: 'shipping quotes local', outcome: 'failed', failureMessage },
    ]);
    const { summary } = await buildRunSummary(store, { ...options, runId, jestExit: { code: 1, signal: null } });
    expect(summary.verdict).toBe('failed');
    expect(summary.failedTests).toEqual([
      {
        fullName: 'shipping quotes local',
        testPath: '/project/tests/shipping.test.ts',
        caseId: null,
        message: 'Expected structuredContent to equal the expected value',
        failureMessage: failureMessage.replace('sk-live-secret-1234', '[REDACTED]'),
      },
    ]);
    // Jest's exit is shown, but the verdict reads only the store, as `m3 report` does later.
    expect(summary.reasons).toEqual(['1 test(s) failed']);
  });

  test('a retried test that finally passed is not a failed test', async () => {
    const runId = await seedRun(store, [
      { suite: 's', fullName: 's flaky', outcome: 'failed', retryIndex: 0 },
      { suite: 's', fullName: 's flaky', outcome: 'passed', retryIndex: 1 },
    ]);
    const { summary } = await buildRunSummary(store, { ...options, runId });
    expect(summary.attempts).toMatchObject({ total: 2, passed: 1, failed: 1 });
    expect(summary.failedTests).toEqual([]);
  });

  test('a caught required failure fails an otherwise green run and is named', async () => {
    const runId = await seedRun(
      store,
      [
        {
          suite: 'quality',
          fullName: 'quality answer',
          outcome: 'passed',
          caseId: 'answer-1',
          evaluations: [
            {
              evaluator: 'project.answer.v1',
              status: 'failed',
              required: true,
              rationale: 'expect(received).toSatisfyJudge(judge, options)\n\nwrong total\nmore',
            },
          ],
        },
      ],
      { status: 'passed' },
    );
    const { summary } = await buildRunSummary(store, { ...options, runId, jestExit: { code: 0, signal: null } });
    expect(summary.verdict).toBe('failed');
    expect(summary.requiredFailures).toEqual([
      expect.objectContaining({
        evaluator: 'project.answer.v1',
        status: 'failed',
        caseId: 'answer-1',
        rationale: 'wrong total',
      }),
    ]);
    expect(summary.reasons[0]).toMatch(
      /^required evaluation did not pass: project\.answer\.v1 \(exec-[0-9a-f]{32}\) is failed$/,
    );
  });

  test('a spec-required evaluator that never ran is a missing required failure', async () => {
    const runId = await seedRun(store, [
      { suite: 'quality', fullName: 'quality x', outcome: 'passed', requiredEvaluators: ['project.must.v1'] },
    ]);
    const { summary } = await buildRunSummary(store, { ...options, runId });
    expect(summary.requiredFailures).toEqual([
      expect.objectContaining({ evaluator: 'project.must.v1', status: 'missing' }),
    ]);
    expect(summary.evaluations).toEqual([
      expect.objectContaining({ evaluator: 'project.must.v1', passRate: 0, expected: 1, missingRequired: 1 }),
    ]);
    expect(summary.verdict).toBe('failed');
  });

  test('agent executions get pass rates per harness, per model and per case; a run without them gets none', async () => {
    const agentTests = [
      ['careful', 1, 'passed'],
      ['careful', 2, 'passed'],
      ['sloppy', 1, 'passed'],
      ['sloppy', 2, 'failed'],
    ] as const;
    const runId = await seedRun(store, [
      ...agentTests.map(([model, trial, status]) => ({
        suite: 'math',
        fullName: `math adds [agent=openai:${model}] [trial ${trial}/2]`,
        outcome: 'passed' as const,
        caseId: 'math::adds',
        agent: { harness: 'openai', model, trial },
        evaluations: [{ evaluator: 'example.math.v1', status }],
      })),
      {
        suite: 'math',
        fullName: 'math divides [agent=acp:fixture]',
        outcome: 'passed',
        caseId: 'math::divides',
        agent: { harness: 'acp', model: 'fixture', trial: 1 },
        evaluations: [{ evaluator: 'example.math.v1', status: 'failed' }],
      },
      // A direct test of the same run stays out of the agent rates.
      {
        suite: 'math',
        fullName: 'math direct',
        outcome: 'passed',
        caseId: 'math::direct',
        evaluations: [{ evaluator: 'example.math.v1', status: 'failed' }],
      },
    ]);
    const { agents, evaluations } = (await buildRunSummary(store, { ...options, runId })).summary;
    expect(evaluations).toEqual([expect.objectContaining({ evaluator: 'example.math.v1', passed: 3, expected: 6 })]);
    const view = (rows: NonNullable<typeof agents>['byHarness']) =>
      rows.map((r) => [r.evaluator, r.harness, r.model, r.caseId, r.passed, r.expected]);
    expect(view(agents!.byHarness)).toEqual([
      ['example.math.v1', 'acp', null, null, 0, 1],
      ['example.math.v1', 'openai', null, null, 3, 4],
    ]);
    expect(view(agents!.byModel)).toEqual([
      ['example.math.v1', 'acp', 'fixture', null, 0, 1],
      ['example.math.v1', 'openai', 'careful', null, 2, 2],
      ['example.math.v1', 'openai', 'sloppy', null, 1, 2],
    ]);
    expect(view(agents!.byCase)).toEqual([
      ['example.math.v1', null, null, 'math::adds', 3, 4],
      ['example.math.v1', null, null, 'math::divides', 0, 1],
    ]);
    expect(agents!.byCase[0]).toMatchObject({ executionCount: 4, caseCount: 1, casesAllPassed: 0, casesAnyPassed: 1 });
    expect(agents!.byModel[1]!.interval![1]).toBe(1);

    const plain = await seedRun(store, [{ suite: 's', fullName: 's direct', outcome: 'passed' }]);
    expect((await buildRunSummary(store, { ...options, runId: plain })).summary.agents).toBeNull();
  });

  test('timed-out executions are listed with the stage, operation and ms their deadline named', async () => {
    const runId = await seedRun(store, [
      {
        suite: 'shipping',
        fullName: 'shipping stalls [agent=acp:fixture] [trial 2/2]',
        outcome: 'failed',
        caseId: 'shipping::stalls',
        agent: { harness: 'acp', model: 'fixture', trial: 2 },
        timeout: {
          code: 'execution_timeout',
          stage: 'waiting_for_harness_response',
          operation: 'session/prompt',
          elapsedMs: 1004,
          timeoutMs: 1000,
        },
      },
      {
        suite: 'shipping',
        fullName: 'shipping direct slow tool',
        outcome: 'failed',
        caseId: 'shipping::slow',
        timeout: {
          code: 'deadline_exceeded',
          stage: 'mcp_call',
          operation: 'callTool',
          elapsedMs: 201,
          timeoutMs: 200,
        },
      },
      { suite: 'shipping', fullName: 'shipping killed worker', outcome: 'failed', timeout: 'no trace' },
      { suite: 'shipping', fullName: 'shipping quotes', outcome: 'passed' },
    ]);
    const { timeouts, verdict } = (await buildRunSummary(store, { ...options, runId })).summary;
    expect(verdict).toBe('failed');
    expect(timeouts).toEqual([
      {
        executionId: expect.any(String),
        kind: 'direct',
        testName: 'shipping direct slow tool',
        caseId: 'shipping::slow',
        server: 'catalog',
        harness: null,
        model: null,
        trial: null,
        code: 'deadline_exceeded',
        stage: 'mcp_call',
        operation: 'callTool',
        elapsedMs: 201,
        timeoutMs: 200,
        message: 'deadline of 200 ms passed during mcp_call',
      },
      expect.objectContaining({ testName: 'shipping killed worker', code: null, stage: null, elapsedMs: null }),
      expect.objectContaining({
        kind: 'agent',
        testName: 'shipping stalls [agent=acp:fixture] [trial 2/2]',
        caseId: 'shipping::stalls',
        server: 'catalog',
        harness: 'acp',
        model: 'fixture',
        trial: '2',
        code: 'execution_timeout',
        stage: 'waiting_for_harness_response',
        operation: 'session/prompt',
        elapsedMs: 1004,
        timeoutMs: 1000,
      }),
    ]);

    const green = await seedRun(store, [{ suite: 's', fullName: 's quotes', outcome: 'passed' }]);
    expect((await buildRunSummary(store, { ...options, runId: green })).summary.timeouts).toEqual([]);
  });

  test('only timed-out executions have their trace view read', async () => {
    const runId = await seedRun(store, [
      ...Array.from({ length: 12 }, (_, i) => ({ suite: 's', fullName: `s ok ${i}`, outcome: 'passed' as const })),
      ...Array.from({ length: 10 }, (_, i) => ({
        suite: 's',
        fullName: `s stalls ${String(i).padStart(2, '0')}`,
        outcome: 'failed' as const,
        timeout: { code: 'deadline_exceeded', stage: 'mcp_call', operation: 'ping', elapsedMs: 11, timeoutMs: 10 },
      })),
    ]);
    const read = jest.spyOn(store, 'getTraceView');
    const listed = jest.spyOn(store, 'listExecutions');
    const { timeouts } = (await buildRunSummary(store, { ...options, runId })).summary;
    expect(timeouts.map((t) => t.testName)).toEqual(
      Array.from({ length: 10 }, (_, i) => `s stalls ${String(i).padStart(2, '0')}`),
    );
    expect(timeouts.every((t) => t.operation === 'ping')).toBe(true);
    expect(read).toHaveBeenCalledTimes(10);
    expect(listed).toHaveBeenCalledTimes(1);
  });

  test('an unknown run is a usage error', async () => {
    await expect(buildRunSummary(store, { ...options, runId: 'run-missing' })).rejects.toThrow(
      'RUN_ID: run run-missing is not in the results database',
    );
  });
});

describe('decideVerdict', () => {
  const green = {
    status: 'passed' as const,
    failedTests: [],
    requiredFailures: [],
    problems: [],
  };

  test('passes only when nothing failed', () => {
    expect(decideVerdict(green)).toEqual({ verdict: 'passed', reasons: [] });
  });

  test.each([
    [
      {
        status: 'failed' as const,
        problems: [{ kind: 'jest_exit' as const, testPath: null, message: 'Jest exited with status 1' }],
      },
      'Jest exited with status 1',
    ],
    [
      {
        status: 'failed' as const,
        problems: [
          {
            kind: 'file_unfinished' as const,
            testPath: 'tests/a.test.js',
            message: 'test file tests/a.test.js did not finish',
          },
        ],
      },
      'test file tests/a.test.js did not finish',
    ],
    [
      {
        status: 'interrupted' as const,
        problems: [
          { kind: 'interrupted' as const, testPath: null, message: 'the run was interrupted: m3 test received SIGINT' },
        ],
      },
      'the run was interrupted: m3 test received SIGINT',
    ],
    [{ status: 'interrupted' as const }, 'the run was interrupted'],
    [{ status: 'running' as const }, 'the run was never finished'],
    [{ status: 'failed' as const }, 'the run was recorded as failed'],
  ])('fails on %j', (overrides, reason) => {
    expect(decideVerdict({ ...green, ...overrides })).toEqual({ verdict: 'failed', reasons: [reason] });
  });
});
