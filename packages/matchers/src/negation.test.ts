import { m3Matchers } from './index';
import { asyncFailureOf, executionOf, failureOf, trace } from './matchers.testkit';

expect.extend(m3Matchers);

/**
 * `.not` on an assertion that holds must fail with a message that says "not" — for every matcher
 * whose own test file does not already cover that direction.
 */
describe('.not on assertions that hold fails', () => {
  const t = trace({ calls: [{ tool: 'a', latencyMs: 10 }] });
  const cases: [string, () => unknown, string][] = [
    ['toHaveTextMatching', () => expect('abc').not.toHaveTextMatching(/b/), 'Expected text not to match'],
    ['toBeCompleted', () => expect(executionOf(t)).not.toBeCompleted(), 'Expected outcome: not "completed"'],
    [
      'toHaveLifecycle',
      () => expect(executionOf(t)).not.toHaveLifecycle('finished'),
      'Expected lifecycle: not "finished"',
    ],
    [
      'toHaveProtocolVersion',
      () => expect(t).not.toHaveProtocolVersion('2025-11-25'),
      'Expected protocol version: not',
    ],
    ['toHaveCapability', () => expect(t).not.toHaveCapability('tools'), 'Expected capability: not "tools"'],
    ['toHaveTrace', () => expect(t).not.toHaveTrace({ completeness: 'partial' }), 'Expected trace not to have'],
    ['toHaveEvent', () => expect(t).not.toHaveEvent('tool_call'), 'Expected: not at least 1 tool_call entry'],
    ['toHaveDuration', () => expect(t).not.toHaveDuration({ minMs: 0 }), 'Expected duration: not within'],
  ];
  test.each(cases)('%s', (_name, run, text) => {
    const message = failureOf(run);
    expect(message).toContain(text);
    expect(message).toContain('.not.');
  });

  test('toSatisfyJudge: .not passes on a failed verdict and fails on a passed one', async () => {
    const verdicts = ['failed', 'passed'];
    (globalThis as { m3Kit?: unknown }).m3Kit = {
      judgeResponse: () => Promise.resolve({ status: verdicts.shift(), score: 0.5, rationale: 'r' }),
    };
    try {
      await expect('answer').not.toSatisfyJudge({}, { input: 'q' });
      expect(await asyncFailureOf(() => expect('answer').not.toSatisfyJudge({}, { input: 'q' }))).toContain(
        'Expected the judge not to pass the response',
      );
    } finally {
      delete (globalThis as { m3Kit?: unknown }).m3Kit;
    }
  });
});
