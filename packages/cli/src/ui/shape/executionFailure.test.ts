import type { AttemptRecord, ExecutionRecord, TraceEntry } from '@sf-m3/core';
import { attemptOf, executionFailure, failureLine } from './executionFailure';

const record = (outcome: ExecutionRecord['outcome'], snapshot: Record<string, unknown> = {}): ExecutionRecord =>
  ({ executionId: 'exec-1', attemptId: 'att-1', outcome, snapshot }) as unknown as ExecutionRecord;
const protocolError = { code: 'protocol_error', message: 'resources/list returned JSON-RPC error -32601' };
const stored = { error: { ...protocolError, details: {} }, operationErrors: [protocolError], operationErrorCount: 1 };

test('a completed or unfinished execution has no failure', () => {
  expect(executionFailure(record('completed'), { outcome: 'passed' })).toBeNull();
  expect(executionFailure(record(null), null)).toBeNull();
  expect(failureLine(null)).toBeNull();
});

test('a failed execution in a passing test: the operation raised as the test expected, with the stored reason', () => {
  const failure = executionFailure(record('failed', stored), { outcome: 'passed' })!;
  expect(failure).toMatchObject({
    outcome: 'failed',
    reason: protocolError,
    operationErrors: [protocolError],
    operationErrorCount: 1,
    context: 'raised_in_passing_test',
  });
  expect(failure.note).toMatch(/^The test passed: 1 operation raised inside it, as the test expected/);
  expect(failureLine(failure)).toBe('protocol_error: resources/list returned JSON-RPC error -32601');
});

test('a failed execution in a failed test says the test failed; without a test it says only the outcome', () => {
  expect(executionFailure(record('failed', stored), { outcome: 'failed' })!.context).toBe('test_failed');
  expect(executionFailure(record('failed', stored), { outcome: 'failed' })!.note).toMatch(/^The test failed/);
  expect(executionFailure(record('timed_out', stored), { outcome: 'passed' })!.context).toBe('ended_in_passing_test');
  expect(executionFailure(record('failed', stored), null)!).toMatchObject({
    context: 'no_test',
    note: 'This execution ended failed.',
  });
});

test('a record saved before reasons were stored falls back to the execution.finished event, else says none', () => {
  const finished = {
    kind: 'lifecycle',
    event: 'execution.finished',
    data: { outcome: 'failed', error: { ...protocolError, details: {} } },
  } as unknown as TraceEntry;
  expect(executionFailure(record('failed'), { outcome: 'passed' }, [finished])!.reason).toEqual(protocolError);
  const none = executionFailure(record('failed'), null)!;
  expect(none.reason).toBeNull();
  expect(failureLine(none)).toBe('no reason was stored');
});

test('the attempt is found by the execution’s attempt id, or by the attempt’s execution list', () => {
  const attempt = (attemptId: string, executionIds: string[]) => ({ attemptId, executionIds }) as AttemptRecord;
  expect(attemptOf(record('failed'), [attempt('att-0', []), attempt('att-1', [])])!.attemptId).toBe('att-1');
  const unlinked = { ...record('failed'), attemptId: null } as ExecutionRecord;
  expect(attemptOf(unlinked, [attempt('att-2', ['exec-1'])])!.attemptId).toBe('att-2');
  expect(attemptOf(unlinked, [attempt('att-3', ['exec-9'])])).toBeNull();
});
