import { ModelValidationError } from '../../errors/M3Error';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { InMemoryExecutionStore } from '../../store/InMemoryExecutionStore';
import { FakeChatCompletionsServer } from '../../testing/FakeChatCompletionsServer';
import { JudgeErrorCode } from '../JudgeErrorCode';
import { LLMJudge } from '../LLMJudge';
import { JUDGE_MAX_REQUESTS_ENV, resolveJudgeMaxRequests, storeJudgeBudget } from './JudgeBudget';

const verdict = { content: { score: 0.9, rationale: 'matches', abstain: false } };

describe('the judge budget', () => {
  let fake: FakeChatCompletionsServer;
  let judge: LLMJudge;
  beforeEach(async () => {
    fake = new FakeChatCompletionsServer({ model: 'judge-fixture' });
    const { baseUrl } = await fake.start();
    judge = new LLMJudge({ model: 'judge-fixture', baseUrl, auth: 'none', responseMode: 'json_text' });
  });
  afterEach(() => fake.close());

  it('sends at most the cap; later calls are error evaluations that lower the rate', async () => {
    const store = new InMemoryExecutionStore();
    const kits = [0, 1].map(() => new MCPTestKit({ store, runId: 'run-budget', judgeMaxRequests: 2 }));
    for (let i = 0; i < 3; i++) fake.enqueue(verdict);
    const results = [];
    // Three questions (three lineages) from two kits of one run sharing the store, as two workers would.
    for (const [i, kit] of [kits[0]!, kits[1]!, kits[0]!].entries()) {
      results.push(
        await kit.judgeResponse({ name: 'answer.v1', input: `q${i}`, expected: 'USD 9', actual: 'USD 9', judge }),
      );
    }
    expect(fake.requests).toHaveLength(2);
    expect(results.map((r) => r.status)).toEqual(['passed', 'passed', 'error']);
    const spent = results[2]!;
    expect(spent.metrics.errorCode).toBe(JudgeErrorCode.BUDGET_EXHAUSTED);
    expect(spent.provenance.errorCode).toBe('judge_budget_exhausted');
    expect(spent.rationale).toBe(
      "the run's judge budget of 2 request(s) is spent (m3 test --judge-max-requests 2); nothing was sent",
    );
    const report = await store.aggregateEvaluations({ filters: { evaluator: ['answer.v1'] } });
    expect(report.totals).toMatchObject({ passedCount: 2, expectedCount: 3, statusCounts: { error: 1 } });
    for (const kit of kits) await kit.close();
    await store.close();
  });

  it('does not spend the budget on a call that could never be sent', async () => {
    const store = new InMemoryExecutionStore();
    const budget = storeJudgeBudget(store, 'run-invalid', 1);
    const invalid = await judge.judge({ input: 'q' }, { budget });
    expect(invalid.errorCode).toBe(JudgeErrorCode.INPUT_INVALID);
    fake.enqueue(verdict);
    expect((await judge.judge({ input: 'q', expected: 'a', actual: 'a' }, { budget })).status).toBe('passed');
    expect((await judge.judge({ input: 'q', expected: 'a', actual: 'a' }, { budget })).errorCode).toBe(
      JudgeErrorCode.BUDGET_EXHAUSTED,
    );
    expect(fake.requests).toHaveLength(1);
    await store.close();
  });

  it('budget 0 sends nothing; without a cap nothing is counted', async () => {
    const store = new InMemoryExecutionStore();
    const none = await judge.judge(
      { input: 'q', expected: 'a', actual: 'a' },
      { budget: storeJudgeBudget(store, 'r', 0) },
    );
    expect(none.errorCode).toBe(JudgeErrorCode.BUDGET_EXHAUSTED);
    expect(fake.requests).toHaveLength(0);
    const kit = new MCPTestKit({ store, runId: 'run-free' });
    fake.enqueue(verdict);
    fake.enqueue(verdict);
    await kit.judgeResponse({ name: 'a.v1', input: 'q', expected: 'a', actual: 'a', judge });
    await kit.judgeResponse({ name: 'a.v1', input: 'q2', expected: 'a', actual: 'a', judge });
    expect(fake.requests).toHaveLength(2);
    await kit.close();
    await store.close();
  });
});

describe('resolveJudgeMaxRequests', () => {
  it('takes the option, else M3_JUDGE_MAX_REQUESTS, else no cap', () => {
    expect(resolveJudgeMaxRequests(3, { [JUDGE_MAX_REQUESTS_ENV]: '9' })).toBe(3);
    expect(resolveJudgeMaxRequests(undefined, { [JUDGE_MAX_REQUESTS_ENV]: ' 9 ' })).toBe(9);
    expect(resolveJudgeMaxRequests(undefined, { [JUDGE_MAX_REQUESTS_ENV]: '0' })).toBe(0);
    expect(resolveJudgeMaxRequests(undefined, {})).toBeNull();
    expect(resolveJudgeMaxRequests(undefined, { [JUDGE_MAX_REQUESTS_ENV]: '' })).toBeNull();
  });

  it('names the variable or option when the value is not a whole number >= 0', () => {
    expect(() => resolveJudgeMaxRequests(undefined, { [JUDGE_MAX_REQUESTS_ENV]: 'ten' })).toThrow(
      'M3_JUDGE_MAX_REQUESTS must be a whole number of judge requests >= 0, got "ten": fix or unset it',
    );
    expect(() => resolveJudgeMaxRequests(-1, {})).toThrow(ModelValidationError);
    expect(() => new MCPTestKit({ judgeMaxRequests: 1.5 })).toThrow(/judgeMaxRequests must be a whole number/);
  });
});
