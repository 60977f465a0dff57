// Issue 27 through the viewer's API, on executions a real kit saved: a passing test that expected
// an operation to raise leaves a failed execution whose page says why and that the test passed; a
// plain direct execution's page has no failure; the run's execution list carries the reason.
import {
  type AttemptRecord,
  InMemoryExecutionStore,
  InProcessServer,
  type M3Error,
  MCPTestKit,
  Redactor,
} from '@sf-m3/core';
import { createFeatureServer, rejection } from '@sf-m3/test-utils/client';
import { ViewerApi } from './ViewerApi';

const RUN = 'run-0123456789abcdef0123456789abcdef';
const feature = (): InProcessServer => new InProcessServer({ name: 'feature', factory: () => createFeatureServer() });

function attempt(attemptId: string, outcome: AttemptRecord['outcome'], executionIds: string[]): AttemptRecord {
  return {
    attemptId,
    runId: RUN,
    testPath: 'tests/x.test.ts',
    fullName: `feature ${attemptId}`,
    caseId: null,
    suiteId: null,
    outcome,
    durationMs: 5,
    failureMessage: outcome === 'failed' ? 'Error: boom' : null,
    retryIndex: 0,
    executionIds,
    startedAt: '2026-12-04T00:00:00.000Z',
    finishedAt: '2026-12-04T00:00:01.000Z',
  };
}

test('failed executions show their reason and whether the test around them passed; completed ones show none', async () => {
  const store = new InMemoryExecutionStore();
  await store.saveRun({
    runId: RUN,
    label: null,
    startedAt: '2026-12-04T00:00:00.000Z',
    finishedAt: '2026-12-04T00:00:02.000Z',
    status: 'failed',
    argv: [],
    counts: { passed: 2, failed: 1, skipped: 0, todo: 0 },
  });
  const kitFor = (attemptId: string) => new MCPTestKit({ store, runId: RUN, suiteName: 'feature', attemptId });

  const expectedKit = kitFor('att-expected');
  const expected = await expectedKit.direct(feature()).connect();
  const raised = (await rejection(expected.listAllResources())) as M3Error;
  await expected.close();
  await expectedKit.close();

  const failingKit = kitFor('att-failing');
  const failing = await failingKit.direct(feature()).connect();
  await rejection(failing.getPrompt('no-such-prompt'));
  await failing.close();
  await failingKit.close();

  const plainKit = kitFor('att-plain');
  const plain = await plainKit.direct(feature()).connect();
  await plain.callTool('echo', { text: 'hi' });
  await plain.close();
  await plainKit.close();

  await store.saveAttempt(attempt('att-expected', 'passed', [expected.executionId]));
  await store.saveAttempt(attempt('att-failing', 'failed', [failing.executionId]));
  await store.saveAttempt(attempt('att-plain', 'passed', [plain.executionId]));
  const api = new ViewerApi(store, { redactor: new Redactor([]), resultsDb: 'mem', cwd: '/' });

  const page = await api.execution(expected.executionId);
  expect(page.execution.outcome).toBe('failed');
  expect(page.attempt).toEqual({ attemptId: 'att-expected', fullName: 'feature att-expected', outcome: 'passed' });
  expect(page.failure).toMatchObject({
    context: 'raised_in_passing_test',
    reason: { code: raised.code, message: raised.message },
    operationErrorCount: 1,
  });
  expect(page.failure!.note).toMatch(/^The test passed: 1 operation raised inside it, as the test expected/);

  const failed = await api.execution(failing.executionId);
  expect(failed.failure).toMatchObject({ context: 'test_failed', reason: { code: 'protocol_error' } });
  expect(failed.failure!.reason!.message).toContain('prompts/get');

  const completed = await api.execution(plain.executionId);
  expect(completed.failure).toBeNull();
  expect(completed.execution.outcome).toBe('completed');

  const rows = (await api.executions(RUN, 0)).executions;
  const byId = new Map(rows.map((row) => [row.executionId, row]));
  expect(byId.get(expected.executionId)).toMatchObject({
    failureContext: 'raised_in_passing_test',
    failure: `${raised.code}: ${raised.message}`,
  });
  expect(byId.get(failing.executionId)!.failureContext).toBe('test_failed');
  expect(byId.get(plain.executionId)).toMatchObject({ failure: null, failureContext: null });
  await store.close();
});
