import type { ErrorInfo, ExecutionResult } from './ExecutionResult';
import { MAX_STORED_OPERATION_ERRORS, storedSnapshot } from './storedSnapshot';

const snapshot = { lifecycle: 'finished', outcome: 'failed', createdAt: 'a', finishedAt: 'b', runId: null };
const error: ErrorInfo = {
  code: 'protocol_error',
  message: 'resources/list: Method not found',
  details: { protocolCode: -32601 },
};

test('keeps the contract §6 snapshot and adds the error and the operation errors (code and message)', () => {
  const result = { snapshot, error } as unknown as ExecutionResult;
  expect(storedSnapshot(result, [error])).toEqual({
    ...snapshot,
    error,
    operationErrors: [{ code: 'protocol_error', message: 'resources/list: Method not found' }],
    operationErrorCount: 1,
  });
});

test('lists at most MAX_STORED_OPERATION_ERRORS operation errors and counts them all', () => {
  const many = Array.from({ length: MAX_STORED_OPERATION_ERRORS + 5 }, (_, i) => ({ ...error, message: `e${i}` }));
  const stored = storedSnapshot({ snapshot, error } as unknown as ExecutionResult, many);
  expect(stored.operationErrors).toHaveLength(MAX_STORED_OPERATION_ERRORS);
  expect(stored.operationErrorCount).toBe(MAX_STORED_OPERATION_ERRORS + 5);
});

test('a completed result is stored as its snapshot alone', () => {
  expect(storedSnapshot({ snapshot: { ...snapshot, outcome: 'completed' } } as unknown as ExecutionResult)).toEqual({
    ...snapshot,
    outcome: 'completed',
  });
});
