import { LLMJudge } from '../../core/src/judge/LLMJudge';
import { MCPTestKit } from '../../core/src/kit/MCPTestKit';
import { linkToKit } from '../../core/src/ownership/kitLink';
import { FakeChatCompletionsServer } from '../../core/src/testing/FakeChatCompletionsServer';
import { DEFAULT_JUDGE_EVALUATOR, m3Matchers, NEGATED_JUDGE_EVALUATOR } from './index';
import { asyncFailureOf, EXEC_ID, trace, turnOf } from './matchers.testkit';

expect.extend(m3Matchers);

const GOOD = { score: 0.95, rationale: 'says 4, as expected', abstain: false };
const BAD = { score: 0.1, rationale: 'says 5; expected 4', abstain: false };

describe('toSatisfyJudge', () => {
  afterEach(() => {
    delete (globalThis as { m3Kit?: unknown }).m3Kit;
  });

  test('without a kit it constructs nothing and fails in both directions', async () => {
    const judge = { model: 'x' };
    const positive = await asyncFailureOf(() => expect('4').toSatisfyJudge(judge, { input: '2+2?' }));
    const negative = await asyncFailureOf(() => expect('4').not.toSatisfyJudge(judge, { input: '2+2?' }));
    expect(positive).toContain('toSatisfyJudge needs a kit');
    expect(negative).toContain('toSatisfyJudge needs a kit');
    expect(positive).toMatchSnapshot();
  });

  test('passes the response, input and expected to kit.judgeResponse and follows its verdict', async () => {
    const calls: Record<string, unknown>[] = [];
    const verdicts = [
      { status: 'passed', score: 0.9, rationale: 'fine' },
      { status: 'failed', score: 0.2, rationale: 'wrong number' },
      { status: 'error', score: null, rationale: 'judge abstained' },
    ];
    const kit = {
      judgeResponse: (options: Record<string, unknown>) => {
        calls.push(options);
        return Promise.resolve(verdicts[calls.length - 1]!);
      },
    };
    const judge = { model: 'fake' };
    (globalThis as { m3Kit?: unknown }).m3Kit = kit;
    const turn = turnOf(trace(), 'turn-7', 'The answer is 4.');
    await expect(turn).toSatisfyJudge(judge, { input: 'What is 2+2?', expected: { answer: 4 } });
    expect(calls[0]).toMatchObject({
      name: DEFAULT_JUDGE_EVALUATOR,
      input: 'What is 2+2?',
      expected: '{"answer":4}',
      actual: 'The answer is 4.',
      judge,
      executionId: EXEC_ID,
      turnId: 'turn-7',
    });
    const failed = await asyncFailureOf(() => expect(turn).toSatisfyJudge(judge, { name: 'math.judge.v1' }));
    expect(calls[1]).toMatchObject({ name: 'math.judge.v1', input: '', expected: '' });
    expect(failed).toContain('Rationale: wrong number');
    expect(failed).toMatchSnapshot();
    const undecided = await asyncFailureOf(() => expect(turn).not.toSatisfyJudge(judge));
    expect(undecided).toContain('the judge could not decide (status error)');
    // A negated use asks under its own default name and says so, so its verdicts are never mixed
    // into the positive judge's rate.
    expect(calls[2]).toMatchObject({ name: NEGATED_JUDGE_EVALUATOR, metadata: { negated: true } });
    expect(calls[0]).toMatchObject({ metadata: { negated: false } });
  });

  test('usage errors', async () => {
    await expect(expect(42).toSatisfyJudge({})).rejects.toThrow('received value must be a string');
    await expect(expect('x').toSatisfyJudge(null as never)).rejects.toThrow('judge must be an LLMJudge');
    await expect(expect('x').toSatisfyJudge({}, { rubric: 'x' } as never)).rejects.toThrow('options must be');
  });

  describe('with a real kit and LLMJudge against the fake Chat Completions server', () => {
    let fake: FakeChatCompletionsServer;
    let baseUrl: string;
    beforeEach(async () => {
      fake = new FakeChatCompletionsServer({ model: 'judge-fixture' });
      ({ baseUrl } = await fake.start());
    });
    afterEach(async () => {
      await fake.close();
    });

    test('a passing verdict passes, a failing one fails; both are saved, with the matcher check', async () => {
      const kit = new MCPTestKit({ recordChecks: true });
      try {
        const judge = new LLMJudge({ model: 'judge-fixture', baseUrl, auth: 'none', responseMode: 'json_text' });
        fake.enqueue({ content: GOOD }, { content: BAD });
        const turn = linkToKit(turnOf(trace(), 'turn-1', '4'), kit);
        await expect(turn).toSatisfyJudge(judge, { input: 'What is 2+2?', expected: '4' });
        const message = await asyncFailureOf(() =>
          expect(turn).toSatisfyJudge(judge, { input: 'What is 2+2?', expected: '4' }),
        );
        expect(message).toContain('says 5; expected 4');
        const body = JSON.stringify(fake.requests[0]!.body);
        expect(body).toContain('What is 2+2?');
        await kit.close(); // awaits the check writes the matchers left pending
        const rows = kit.evaluationResults().map((r) => [r.evaluator, r.status]);
        expect(rows).toEqual(
          expect.arrayContaining([
            [DEFAULT_JUDGE_EVALUATOR, 'passed'],
            [DEFAULT_JUDGE_EVALUATOR, 'failed'],
            ['m3.expect.toSatisfyJudge', 'passed'],
            ['m3.expect.toSatisfyJudge', 'failed'],
          ]),
        );
      } finally {
        await kit.close();
      }
    });

    test('a passing .not on text saves the judge verdict and the matcher check apart, both under not names', async () => {
      const kit = new MCPTestKit({ recordChecks: true });
      try {
        const judge = new LLMJudge({ model: 'judge-fixture', baseUrl, auth: 'none', responseMode: 'json_text' });
        fake.enqueue({ content: GOOD }, { content: BAD });
        (globalThis as { m3Kit?: unknown }).m3Kit = kit;
        await expect('4').toSatisfyJudge(judge, { input: 'What is 2+2?', expected: '4' });
        await expect('5').not.toSatisfyJudge(judge, { input: 'What is 2+2?', expected: '4' });
        await kit.close();
        const rows = kit.evaluationResults().map((r) => [r.evaluator, r.status, r.metadata.negated]);
        // The judge said `failed` (a fact about the response); the negated assertion held (`passed`).
        expect(rows.sort()).toEqual(
          [
            [DEFAULT_JUDGE_EVALUATOR, 'passed', false],
            ['m3.expect.toSatisfyJudge', 'passed', false],
            [NEGATED_JUDGE_EVALUATOR, 'failed', true],
            ['m3.expect.not.toSatisfyJudge', 'passed', true],
          ].sort(),
        );
      } finally {
        await kit.close();
      }
    });
  });
});
