import { MCPTestKit } from '../../core/src/kit/MCPTestKit';
import { linkToKit } from '../../core/src/ownership/kitLink';
import { m3Matchers } from './index';
import { failureOf, weatherTrace } from './matchers.testkit';

expect.extend(m3Matchers);

describe('recording through a real MCPTestKit', () => {
  test('verdicts become m3.expect.<matcher> evaluations in the kit', async () => {
    const kit = new MCPTestKit({ recordChecks: true });
    try {
      const view = linkToKit(weatherTrace().view(), kit);
      expect(view).toHaveToolCall('get_weather', { count: 2 });
      failureOf(() => expect(view).toHaveToolCalls(['search']));
      expect(view).not.toHaveToolCall('delete_file');
      await kit.close(); // awaits the check writes the matchers left pending
      const results = kit.evaluationResults().filter((r) => r.evaluator.startsWith('m3.expect.'));
      expect(results.map((r) => [r.evaluator, r.status])).toEqual([
        ['m3.expect.toHaveToolCall', 'passed'],
        ['m3.expect.toHaveToolCalls', 'failed'],
        ['m3.expect.not.toHaveToolCall', 'passed'],
      ]);
      // The negated row keeps its matcher name where the kit names the matcher.
      expect(results[2]!.metadata).toMatchObject({ negated: true, matcher: 'toHaveToolCall' });
      expect(results[2]!.provenance).toMatchObject({ kind: 'matcher', matcher: 'toHaveToolCall' });
      expect(results[1]!.rationale).toContain('Calls that happened');
      expect(results[0]!.metadata).toMatchObject({
        negated: false,
        testPath: expect.stringContaining('recordVerdict.kit'),
      });
      expect(new Set(results.map((r) => r.subjectDigest)).size).toBe(3);
    } finally {
      await kit.close();
    }
  });
});
