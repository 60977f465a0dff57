import { type ExecutionStore, InMemoryExecutionStore, Redactor } from '@sf-m3/core';
import { EMPTY_LABELS } from '@sf-m3/test-utils/store';
import { buildRunSummary } from './buildRunSummary';
import { formatSummary } from './formatSummary';
import { formatJudgeBudgetLine } from './judgeBudgetUsage';
import { seedRun } from './runFixtures.testkit';

const options = { redactor: new Redactor([]), resultsDb: '.m3/executions.sqlite', cwd: '/project' };

/** Saves `count` judge evaluations the spent budget refused, as the judge records them. */
async function saveRefusals(store: ExecutionStore, runId: string, count: number): Promise<void> {
  const [judged] = await store.listEvaluations({ runId });
  for (let i = 0; i < count; i++) {
    await store.saveEvaluation({
      result: {
        ...judged!,
        evaluationId: `eval-refused-${i}`,
        evaluator: 'm3.judge.helpful',
        status: 'error',
        subjectDigest: String(i).repeat(64),
        metrics: { errorCode: 'judge_budget_exhausted' },
      },
      labels: { ...EMPTY_LABELS, runId, suiteName: 'shipping' },
    });
  }
}

function budgetLine(text: string): string | undefined {
  return text.split('\n').find((line) => line.startsWith('judge budget'));
}

describe('the judge budget line of the summary', () => {
  let store: InMemoryExecutionStore;
  let runId: string;
  beforeEach(async () => {
    store = new InMemoryExecutionStore();
    runId = await seedRun(store, [
      {
        suite: 'shipping',
        fullName: 'shipping judged',
        outcome: 'passed',
        evaluations: [{ evaluator: 'm3.judge.helpful', status: 'passed' }],
      },
    ]);
  });
  afterEach(async () => {
    await store.close();
  });

  test('a spent budget: used/limit from the store counter and the refused judge evaluations', async () => {
    for (let i = 0; i < 5; i++) await store.reserveJudgeRequest(runId, 3);
    await saveRefusals(store, runId, 2);
    const { summary } = await buildRunSummary(store, { ...options, runId, judgeMaxRequests: 3 });
    expect(summary.judgeBudget).toEqual({ limit: 3, used: 3, refused: 2 });
    expect(budgetLine(formatSummary(summary))).toBe(
      'judge budget  3/3 request(s) used (spent); 2 judge evaluation(s) refused ' +
        '(judge_budget_exhausted, not sent, counted as errors)',
    );
  });

  test('a budget not reached: only what was used; another run’s requests do not count', async () => {
    await store.reserveJudgeRequest(runId, 10);
    await store.reserveJudgeRequest('run-other', 10);
    const { summary } = await buildRunSummary(store, { ...options, runId, judgeMaxRequests: 10 });
    expect(budgetLine(formatSummary(summary))).toBe('judge budget  1/10 request(s) used');
  });

  test('a budget of 0: nothing sent, every judge evaluation refused', async () => {
    await store.reserveJudgeRequest(runId, 0);
    await saveRefusals(store, runId, 1);
    const { summary } = await buildRunSummary(store, { ...options, runId, judgeMaxRequests: 0 });
    expect(budgetLine(formatSummary(summary))).toBe(
      'judge budget  0/0 request(s) used (spent); 1 judge evaluation(s) refused ' +
        '(judge_budget_exhausted, not sent, counted as errors)',
    );
  });

  test('no budget set and nothing counted: no line', async () => {
    const { summary } = await buildRunSummary(store, { ...options, runId });
    expect(summary.judgeBudget).toBeNull();
    expect(budgetLine(formatSummary(summary))).toBeUndefined();
  });

  test('a later report of a budgeted run (limit unknown) still says what was used and refused', async () => {
    await store.reserveJudgeRequest(runId, 1);
    await saveRefusals(store, runId, 1);
    const { summary } = await buildRunSummary(store, { ...options, runId });
    expect(budgetLine(formatSummary(summary))).toBe(
      'judge budget  1 request(s) used (the limit is not saved with the run); 1 judge evaluation(s) refused ' +
        '(judge_budget_exhausted, not sent, counted as errors)',
    );
  });

  test('a store that cannot count judge requests leaves `used` unknown', async () => {
    const counting = store.countJudgeRequests.bind(store);
    const withoutCount = Object.assign(Object.create(store) as InMemoryExecutionStore, {
      countJudgeRequests: undefined,
    });
    expect(await counting(runId)).toBe(0);
    const { summary } = await buildRunSummary(withoutCount, { ...options, runId, judgeMaxRequests: 4 });
    expect(summary.judgeBudget).toEqual({ limit: 4, used: null, refused: 0 });
    expect(formatJudgeBudgetLine(summary.judgeBudget!)).toBe('judge budget  unknown/4 request(s) used');
  });
});
