import { RATE_DECIMALS, roundRate, roundSummaryRates } from './roundRates';
import type { EvaluatorStats, RunSummary } from './RunSummary';

const zero = { passed: 0, failed: 0, inconclusive: 0, error: 0, not_run: 0 };

const stats = (overrides: Partial<EvaluatorStats>): EvaluatorStats => ({
  evaluator: 'm3.expect.toHaveToolCall',
  passRate: 0.8,
  interval: [0.37553462, 0.96378],
  passed: 4,
  expected: 5,
  evaluationCount: 5,
  missingRequired: 0,
  pendingRequired: 0,
  statusCounts: { ...zero, passed: 4, failed: 1 },
  averageScore: 0.1 + 0.2,
  ...overrides,
});

describe('roundRate', () => {
  test('four decimal places, no float noise, no negative zero, null stays null', () => {
    expect(RATE_DECIMALS).toBe(4);
    expect(roundRate(0.8 - 1)).toBe(-0.2);
    expect(0.8 - 1).toBe(-0.19999999999999996); // the noise this removes
    expect(roundRate(0.7934506856227626)).toBe(0.7935);
    expect(roundRate(1)).toBe(1);
    expect(Object.is(roundRate(-0.00001), 0)).toBe(true);
    expect(roundRate(null)).toBeNull();
  });
});

describe('roundSummaryRates', () => {
  test('rounds evaluator, agent and baseline figures and leaves counts and the input alone', () => {
    const evaluator = stats({});
    const delta = {
      evaluator: 'x',
      baselinePassRate: 1,
      currentPassRate: 0.8,
      delta: 0.8 - 1,
      baseline: { passRate: 1, passed: 5, expected: 5 },
      current: { passRate: 4 / 5, passed: 4, expected: 5 },
      pValue: 1.234567891e-9,
    };
    const group = {
      evaluator: 'x',
      harness: 'openai',
      model: 'm',
      caseId: null,
      passRate: 2 / 3,
      interval: [0.2076, 0.9385] as [number, number],
      passed: 2,
      expected: 3,
      evaluationCount: 3,
      executionCount: 3,
      caseCount: 1,
      casesAllPassed: 0,
      casesAnyPassed: 1,
      statusCounts: { ...zero, passed: 2, failed: 1 },
    };
    const summary = {
      evaluations: [evaluator],
      agents: { byHarness: [group], byModel: [], byCase: [group] },
      protocols: {
        revisions: [
          {
            revision: '2026-07-28',
            tests: 3,
            testsPassed: 2,
            testsFailed: 1,
            evaluators: [{ evaluator: 'x', passRate: 2 / 3, interval: [0.20765, 0.93851], passed: 2, expected: 3 }],
          },
        ],
      },
      baseline: {
        baselineRunId: 'a',
        currentRunId: 'b',
        regressedEvaluators: [delta],
        evaluators: [delta],
        groups: [delta],
        regressions: [delta],
      },
      gates: [{ actual: 0.7000000000000001, gap: 0.09999999999999998 }],
      surface: {
        runId: 'b',
        servers: [{ server: 's', measures: { tools: { covered: 7, total: 9, percent: (7 / 9) * 100 } } }],
      },
    } as unknown as RunSummary;
    const rounded = roundSummaryRates(summary);
    expect(rounded.surface!.servers[0]!.measures.tools).toEqual({ covered: 7, total: 9, percent: 77.78 });
    expect(rounded.evaluations[0]).toEqual({ ...evaluator, interval: [0.3755, 0.9638], averageScore: 0.3 });
    expect(rounded.agents!.byHarness[0]).toMatchObject({ passRate: 0.6667, passed: 2, expected: 3 });
    expect(rounded.agents!.byCase[0]!.passRate).toBe(0.6667);
    expect(rounded.protocols!.revisions[0]!.evaluators[0]).toMatchObject({
      passRate: 0.6667,
      interval: [0.2077, 0.9385],
    });
    // A p-value keeps six significant digits: rounding it to four places would make it 0.
    expect(rounded.baseline!.regressedEvaluators[0]).toEqual({ ...delta, delta: -0.2, pValue: 1.23457e-9 });
    expect(rounded.baseline!.groups[0]!.current!.passRate).toBe(0.8);
    expect(rounded.gates[0]).toMatchObject({ actual: 0.7, gap: 0.1 });
    expect(rounded.baseline!.evaluators[0]!.delta).toBe(-0.2);
    expect(summary.evaluations[0]!.averageScore).toBe(0.1 + 0.2);
    expect(roundSummaryRates({ ...summary, agents: null, baseline: null })).toMatchObject({
      agents: null,
      baseline: null,
    });
  });
});
