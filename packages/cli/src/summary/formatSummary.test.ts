import { formatRate, formatSummary, MAX_PRINTED_CASE_ROWS, MAX_PRINTED_TIMEOUT_ROWS } from './formatSummary';
import type { RunSummary, TimedOutExecution } from './RunSummary';

const zero = { passed: 0, failed: 0, inconclusive: 0, error: 0, not_run: 0 };

function summary(overrides: Partial<RunSummary> = {}): RunSummary {
  return {
    schemaVersion: 1,
    runId: 'run-3f1c0000000000000000000000000000',
    label: null,
    status: 'passed',
    startedAt: '2026-11-29T12:00:00.000Z',
    finishedAt: '2026-11-29T12:00:05.000Z',
    resultsDb: '.m3/executions.sqlite',
    suites: [{ suiteId: 1, name: 'shipping', attempts: { total: 1, passed: 1, failed: 0, skipped: 0, todo: 0 } }],
    attempts: { total: 1, passed: 1, failed: 0, skipped: 0, todo: 0 },
    failedTests: [],
    evaluations: [
      {
        evaluator: 'm3.expect.toBeToolError',
        passRate: 1,
        interval: [0.2065493143772375, 1],
        passed: 1,
        expected: 1,
        evaluationCount: 1,
        missingRequired: 0,
        pendingRequired: 0,
        statusCounts: { ...zero, passed: 1 },
        averageScore: null,
      },
      {
        evaluator: 'm3.expect.toHaveStructuredContent',
        passRate: 0.75,
        interval: [0.30064, 0.95442],
        passed: 3,
        expected: 4,
        evaluationCount: 4,
        missingRequired: 0,
        pendingRequired: 0,
        statusCounts: { ...zero, passed: 3, failed: 1 },
        averageScore: null,
      },
    ],
    agents: null,
    protocols: null,
    timeouts: [],
    requiredFailures: [],
    baseline: null,
    baselineNote: null,
    gates: [],
    judgeBudget: null,
    surface: null,
    jestExit: { code: 0, signal: null },
    verdict: 'passed',
    reasons: [],
    ...overrides,
  };
}

function timedOut(overrides: Partial<TimedOutExecution> = {}): TimedOutExecution {
  return {
    executionId: 'exec-0000000000000000000000000000000a',
    kind: 'direct',
    testName: 'shipping slow',
    caseId: 'shipping::slow',
    server: 'example-mcp',
    harness: null,
    model: null,
    trial: null,
    code: 'deadline_exceeded',
    stage: 'mcp_call',
    operation: 'callTool',
    elapsedMs: 201,
    timeoutMs: 200,
    message: 'execution deadline of 200 ms passed during mcp_call (callTool)',
    ...overrides,
  };
}

describe('formatSummary', () => {
  test('a green run', () => {
    expect(formatSummary(summary(), { feedbackPath: '.m3/reports/run-3f1c/feedback.json' })).toMatchSnapshot();
  });

  test('a failed run with failed tests, required failures, a baseline and a failed gate', () => {
    const structured = {
      evaluator: 'm3.expect.toHaveStructuredContent',
      scope: 'evaluator' as const,
      suiteName: null,
      caseId: null,
      harness: null,
      model: null,
      baselinePassRate: 1,
      currentPassRate: 0.75,
      delta: -0.25,
      baseline: { passRate: 1, passed: 40, expected: 40 },
      current: { passRate: 0.75, passed: 30, expected: 40 },
      pValue: 0.00094,
      significance: 'significant' as const,
    };
    const text = formatSummary(
      summary({
        status: 'failed',
        attempts: { total: 3, passed: 1, failed: 1, skipped: 1, todo: 0 },
        failedTests: [
          {
            fullName: 'shipping quotes regional',
            testPath: '/p/t.test.ts',
            caseId: null,
            message: 'expected 12, got 13',
            failureMessage: 'expect(received).toHaveText(expected)\n\nexpected 12, got 13\n\nexecutionId=exec-1',
          },
        ],
        requiredFailures: [
          {
            evaluator: 'project.answer.v1',
            status: 'failed',
            executionId: 'exec-00000000000000000000000000000001',
            caseId: 'answer-1',
            evaluationId: 'eval-1',
            rationale: 'wrong total',
          },
          {
            evaluator: 'project.must.v1',
            status: 'missing',
            executionId: null,
            caseId: null,
            evaluationId: null,
            rationale: null,
          },
        ],
        baseline: {
          baselineRunId: 'run-0000000000000000000000000000beef',
          currentRunId: 'run-3f1c0000000000000000000000000000',
          regressedTests: [
            {
              key: 'tests/t.test.ts › shipping quotes regional',
              fullName: 'shipping quotes regional',
              caseId: null,
              before: 'passed',
              after: 'failed',
            },
          ],
          fixedTests: [],
          newTests: 1,
          removedTests: 0,
          alpha: 0.05,
          regressedEvaluators: [structured],
          evaluators: [structured],
          groups: [
            {
              ...structured,
              scope: 'case',
              caseId: 'shipping::quotes',
              baselinePassRate: 1,
              currentPassRate: 0.9,
              delta: -0.1,
              baseline: { passRate: 1, passed: 10, expected: 10 },
              current: { passRate: 0.9, passed: 9, expected: 10 },
              pValue: 1,
              significance: 'within noise',
            },
          ],
          regressions: [structured],
          dropsWithinNoise: 1,
          interfaceChanges: {
            compared: 1,
            changes: [
              {
                suiteName: 'shipping',
                server: 'shop',
                tool: 'shipping_quote',
                change: 'removed',
                fields: [],
                differences: [],
                renamed: 'quote_shipping',
              },
              {
                suiteName: 'shipping',
                server: 'shop',
                tool: 'quote_shipping',
                change: 'added',
                fields: [],
                differences: [],
                renamed: 'shipping_quote',
              },
              {
                suiteName: 'shipping',
                server: 'shop',
                tool: 'batch_total',
                change: 'changed',
                fields: ['inputSchema'],
                differences: [
                  {
                    path: '$.inputSchema.properties.values.items.type',
                    change: 'changed',
                    before: 'number',
                    after: 'string',
                  },
                ],
                renamed: null,
              },
            ],
            notComparable: [{ suiteName: 'shipping', server: 'legacy', seenIn: 'baseline' }],
          },
        },
        gates: [
          {
            kind: 'min_pass_rate',
            evaluator: 'm3.expect.toHaveStructuredContent',
            threshold: 0.8,
            actual: 0.75,
            gap: 0.05,
            regressions: null,
            source: 'command line',
            passed: false,
            message: 'min pass rate m3.expect.toHaveStructuredContent ≥ 80.0%: 75.0% (3/4) is 5.0 pts below',
          },
        ],
        verdict: 'failed',
        reasons: ['1 test(s) failed', 'Jest exited with status 1'],
      }),
    );
    expect(text).toMatchSnapshot();
    // The terminal gets the meaningful line only; the whole message is left to feedback.json and --json.
    expect(text).toContain('  ✕ shipping quotes regional — expected 12, got 13\n');
    expect(text).not.toContain('executionId=exec-1');
  });

  test('a run with agent executions shows pass rates per harness, model and case', () => {
    const row = (
      key: { harness?: string; model?: string; caseId?: string },
      passed: number,
      expected: number,
      interval: [number, number],
    ) => ({
      evaluator: 'example.math.v1',
      harness: key.harness ?? null,
      model: key.model ?? null,
      caseId: key.caseId ?? null,
      passRate: passed / expected,
      interval,
      passed,
      expected,
      evaluationCount: expected,
      executionCount: expected,
      caseCount: key.caseId ? 1 : 2,
      casesAllPassed: 0,
      casesAnyPassed: 0,
      statusCounts: { ...zero, passed, failed: expected - passed },
    });
    const text = formatSummary(
      summary({
        agents: {
          byHarness: [row({ harness: 'openai' }, 6, 8, [0.40927, 0.92849])],
          byModel: [
            row({ harness: 'openai', model: 'careful' }, 4, 4, [0.51009, 1]),
            row({ harness: 'openai', model: 'sloppy' }, 2, 4, [0.15004, 0.84996]),
          ],
          byCase: [
            row({ caseId: 'math::add' }, 4, 4, [0.51009, 1]),
            row({ caseId: 'math::divide' }, 2, 4, [0.15004, 0.84996]),
          ],
        },
      }),
    );
    expect(text).toMatchSnapshot();
  });

  test('long case ids are shortened and case rows beyond the cap are left to feedback.json', () => {
    const row = (caseId: string) => ({
      evaluator: 'm3.expect.toHaveToolCall',
      harness: null,
      model: null,
      caseId,
      passRate: 1,
      interval: [0.2, 1] as [number, number],
      passed: 1,
      expected: 1,
      evaluationCount: 1,
      executionCount: 1,
      caseCount: 1,
      casesAllPassed: 1,
      casesAnyPassed: 1,
      statusCounts: { ...zero, passed: 1 },
    });
    const long = `suite::suite ${'a very long test name '.repeat(5)}ending one`;
    const other = long.replace('ending one', 'ending two');
    const byCase = [
      row(long),
      row(other),
      ...Array.from({ length: MAX_PRINTED_CASE_ROWS + 2 }, (_, i) => row(`case-${i}`)),
    ];
    const text = formatSummary(summary({ agents: { byHarness: [], byModel: [], byCase } }));
    // The suite is not repeated, and the cut is in the middle: two cases differing at the end stay apart.
    const shown = (id: string) => {
      const label = id.replace('suite::suite ', 'suite › ');
      return `${label.slice(0, 20)}…${label.slice(label.length - 39)}`;
    };
    expect(text).toContain(`    m3.expect.toHaveToolCall  ${shown(long)}  100.0%`);
    expect(text).toContain(`    m3.expect.toHaveToolCall  ${shown(other)}  100.0%`);
    expect(shown(long)).toHaveLength(60);
    expect(shown(long)).not.toBe(shown(other));
    expect(text).toContain(`case-${MAX_PRINTED_CASE_ROWS - 3}  `);
    expect(text).not.toContain(`case-${MAX_PRINTED_CASE_ROWS - 2}  `);
    expect(text).toContain('    … 4 more case row(s) in feedback.json (or --json)\n');
  });

  test('timed-out executions: test, agent, stage, operation and elapsed/timeout ms', () => {
    const text = formatSummary(
      summary({
        status: 'failed',
        attempts: { total: 3, passed: 0, failed: 3, skipped: 0, todo: 0 },
        failedTests: [],
        timeouts: [
          timedOut({ testName: 'shipping direct slow tool', stage: 'mcp_call', operation: 'callTool' }),
          timedOut({ testName: null, caseId: 'shipping::lost', stage: null, operation: null, elapsedMs: null }),
          timedOut({
            kind: 'agent',
            testName: 'shipping stalls [server=example-mcp] [agent=acp:fixture]',
            harness: 'acp',
            model: 'fixture',
            trial: '1',
            code: 'execution_timeout',
            stage: 'waiting_for_harness_response',
            operation: 'session/prompt',
            elapsedMs: 1003,
            timeoutMs: 1000,
          }),
        ],
        verdict: 'failed',
        reasons: ['3 test(s) failed'],
      }),
    );
    expect(text).toMatchSnapshot();
    expect(text).toContain(
      '      acp:fixture  stage=waiting_for_harness_response  operation=session/prompt  elapsed 1003 ms of 1000 ms\n',
    );
  });

  test('timed-out rows beyond the cap are left to feedback.json; none prints no section', () => {
    const timeouts = Array.from({ length: MAX_PRINTED_TIMEOUT_ROWS + 3 }, (_, i) =>
      timedOut({ testName: `stall ${String(i).padStart(2, '0')}` }),
    );
    const text = formatSummary(summary({ timeouts }));
    expect(text).toContain(`timeouts    ${MAX_PRINTED_TIMEOUT_ROWS + 3} execution(s) passed their deadline`);
    expect(text).toContain(`⏱ stall ${MAX_PRINTED_TIMEOUT_ROWS - 1}\n`);
    expect(text).not.toContain(`⏱ stall ${MAX_PRINTED_TIMEOUT_ROWS}\n`);
    expect(text).toContain('  … 3 more timed-out execution(s) in feedback.json (or --json)\n');
    expect(formatSummary(summary())).not.toContain('timeouts');
  });

  test('cassettes (contract §24): replayed, recorded and mixed executions, obsolete entries as Jest lists obsolete snapshots', () => {
    const replayedOnly = formatSummary(
      summary({
        cassettes: { replayed: 12, recorded: 2, mixed: 0, obsolete: 0, obsoleteRemoved: false, obsoleteFiles: [] },
      }),
    );
    expect(replayedOnly).toContain(
      'attempts    1 passed, 0 failed, 0 skipped, 0 todo\ncassettes  12 replayed, 2 recorded, 0 obsolete\n',
    );
    const text = formatSummary(
      summary({
        cassettes: {
          replayed: 12,
          recorded: 2,
          mixed: 1,
          obsolete: 3,
          obsoleteRemoved: false,
          obsoleteFiles: [
            { testPath: 'tests/agents.test.ts', obsolete: 2, tests: ['agents old prompt', 'agents renamed'] },
            { testPath: 'tests/judge.test.ts', obsolete: 1, tests: [] },
          ],
        },
      }),
    );
    expect(text).toMatchSnapshot();
    const removed = formatSummary(
      summary({
        cassettes: {
          replayed: 0,
          recorded: 1,
          mixed: 0,
          obsolete: 1,
          obsoleteRemoved: true,
          obsoleteFiles: [{ testPath: 'tests/agents.test.ts', obsolete: 1, tests: ['agents old prompt'] }],
        },
      }),
    );
    expect(removed).toMatchSnapshot();
    // No cassette line when nothing used a cassette (the README quick start's summary stays as it is).
    expect(formatSummary(summary({ cassettes: null }))).not.toContain('cassettes');
  });

  test('no evaluations and a baseline note', () => {
    const text = formatSummary(
      summary({ evaluations: [], suites: [], baselineNote: 'no earlier run to compare with' }),
    );
    expect(text).toContain('evaluations none\n');
    expect(text).toContain('suites      none\n');
    expect(text).toContain('baseline    no earlier run to compare with\n');
    expect(text.endsWith('verdict     passed\n')).toBe(true);
  });

  test('formatRate', () => {
    expect(formatRate(null)).toBe('n/a');
    expect(formatRate(0.8751)).toBe('87.5%');
  });
});

test('a run with an era matrix shows its tests and pass rates per MCP revision', () => {
  const rate = (evaluator: string, passed: number, expected: number) => ({
    evaluator,
    passRate: passed / expected,
    interval: [0.5, 1] as [number, number],
    passed,
    expected,
  });
  const text = formatSummary(
    summary({
      protocols: {
        revisions: [
          {
            revision: '2025-11-25',
            tests: 2,
            testsPassed: 2,
            testsFailed: 0,
            evaluators: [rate('m3.expect.toHaveText', 2, 2)],
          },
          {
            revision: '2026-07-28',
            tests: 2,
            testsPassed: 1,
            testsFailed: 1,
            evaluators: [rate('m3.expect.toHaveText', 1, 2), rate('m3.expect.toHaveToolCall', 2, 2)],
          },
        ],
      },
    }),
  );
  expect(text).toMatchSnapshot();
  expect(text).toContain('  2026-07-28  1/2 test(s) passed');
});
