import { jestChildEnv } from '../jest/jestChildEnv';
import { validateTestOptions } from '../options/testOptions';
import { parseJudgeMaxRequests } from './judgeMaxRequestsOption';

describe('--judge-max-requests', () => {
  test('takes a whole number of requests, 0 included', () => {
    expect(parseJudgeMaxRequests('25')).toBe(25);
    expect(parseJudgeMaxRequests(' 0 ')).toBe(0);
  });

  test.each(['-1', '1.5', 'ten', '', '1e3', '99999999999999999999'])('rejects %j naming the flag', (value) => {
    expect(() => parseJudgeMaxRequests(value)).toThrow(
      `--judge-max-requests: must be a whole number of judge requests (0 or more), not "${value}"`,
    );
  });

  test('reaches the workers as M3_JUDGE_MAX_REQUESTS; a stale value is removed when the flag is not given', () => {
    const capped = validateTestOptions({ serverTokens: [], judgeMaxRequests: '3' }, '/project');
    expect(capped.judgeMaxRequests).toBe(3);
    expect(jestChildEnv({}, capped, 'run-x', []).M3_JUDGE_MAX_REQUESTS).toBe('3');
    const free = validateTestOptions({ serverTokens: [] }, '/project');
    expect(jestChildEnv({ M3_JUDGE_MAX_REQUESTS: '1' }, free, 'run-x', [])).not.toHaveProperty('M3_JUDGE_MAX_REQUESTS');
  });
});
