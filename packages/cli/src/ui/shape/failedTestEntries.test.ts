import { attemptRecord, executionRecord, storedEvaluation } from '@sf-m3/test-utils/store';
import { failedTestEntries } from './failedTestEntries';

const failed = {
  fullName: 'git answers status',
  testPath: '/p/tests/git.test.ts',
  caseId: 'git::git answers status',
  message: 'expected a call to git_status',
  failureMessage: 'expected a call to git_status\n\nReceived: none',
};

describe('failedTestEntries', () => {
  test('a failed test lists every execution of its attempts (either link) and its assertions that did not pass', () => {
    const first = attemptRecord({
      runId: 'r',
      testPath: failed.testPath,
      fullName: failed.fullName,
      outcome: 'failed',
    });
    const retry = attemptRecord({
      runId: 'r',
      testPath: failed.testPath,
      fullName: failed.fullName,
      outcome: 'failed',
    });
    const other = attemptRecord({ runId: 'r', testPath: failed.testPath, fullName: 'git lists branches' });
    const listed = executionRecord({ runId: 'r', outcome: 'failed' });
    const linked = executionRecord({ runId: 'r', attemptId: retry.attemptId, outcome: 'completed' });
    const elsewhere = executionRecord({ runId: 'r', attemptId: other.attemptId });
    const attempts = [{ ...first, executionIds: [listed.executionId] }, retry, other];
    const evaluation = (status: 'passed' | 'failed', line: number, execution = linked) =>
      storedEvaluation(
        {
          evaluator: 'm3.expect.toHaveToolCall',
          status,
          rationale: status,
          metadata: { testPath: failed.testPath, line },
        },
        {},
        execution,
      ).result;
    const evaluations = [evaluation('passed', 10), evaluation('failed', 11), evaluation('failed', 12, elsewhere)];

    const [entry] = failedTestEntries([failed], attempts, [listed, linked, elsewhere], evaluations, '/p');
    expect(entry!.message).toBe(failed.message);
    expect(entry!.executions).toEqual([
      { executionId: listed.executionId, outcome: 'failed' },
      { executionId: linked.executionId, outcome: 'completed' },
    ]);
    expect(entry!.failedAssertions.map((a) => [a.evaluator, a.status, a.label.site])).toEqual([
      ['m3.expect.toHaveToolCall', 'failed', 'tests/git.test.ts:11'],
    ]);
  });

  test('a failed test with no executions is still listed, with its message', () => {
    const attempt = attemptRecord({
      runId: 'r',
      testPath: failed.testPath,
      fullName: failed.fullName,
      outcome: 'failed',
    });
    const [entry] = failedTestEntries([failed], [attempt], [], [], '/p');
    expect(entry).toMatchObject({
      fullName: failed.fullName,
      message: failed.message,
      executions: [],
      failedAssertions: [],
    });
  });
});
