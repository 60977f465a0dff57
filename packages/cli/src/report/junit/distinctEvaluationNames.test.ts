import { storedEvaluation } from '@sf-m3/test-utils/store';
import { distinctEvaluationNames } from './distinctEvaluationNames';

const row = (evaluator: string, line?: number) =>
  storedEvaluation({
    evaluator,
    metadata: line === undefined ? {} : { testPath: '/p/tests/git.test.ts', line, matcher: 'x', negated: false },
  }).result;

describe('distinctEvaluationNames', () => {
  test('an evaluator used once keeps its plain name; repeated ones get their call sites', () => {
    const names = distinctEvaluationNames(
      [row('m3.expect.toHaveToolCall', 10), row('m3.expect.toHaveToolCall', 12), row('judge.v1')],
      '/p',
    );
    expect(names).toEqual([
      'm3.evaluation.m3.expect.toHaveToolCall@tests/git.test.ts:10',
      'm3.evaluation.m3.expect.toHaveToolCall@tests/git.test.ts:12',
      'm3.evaluation.judge.v1',
    ]);
  });

  test('the same line twice (a loop) or no site at all still gives distinct names', () => {
    const names = distinctEvaluationNames(
      [row('m3.expect.toHaveText', 5), row('m3.expect.toHaveText', 5), row('custom.v1'), row('custom.v1')],
      '/p',
    );
    expect(new Set(names).size).toBe(4);
    expect(names).toEqual([
      'm3.evaluation.m3.expect.toHaveText@tests/git.test.ts:5#1',
      'm3.evaluation.m3.expect.toHaveText@tests/git.test.ts:5#2',
      'm3.evaluation.custom.v1#1',
      'm3.evaluation.custom.v1#2',
    ]);
  });
});
