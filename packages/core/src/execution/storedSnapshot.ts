// The snapshot a store keeps for a finished execution (`ExecutionRecord.snapshot`): the result's
// contract §6 snapshot plus, when it did not complete, why — `error`, the decisive error (the first
// that escaped an operation, the deadline, the cancel) — and `operationErrors`, every exception
// that escaped a client operation, so a reader can tell "the connection broke" from "an operation
// raised, perhaps as the test expected" without the trace.
import type { JsonObject } from '../json';
import type { ErrorInfo, ExecutionResult } from './ExecutionResult';

/** Operation errors a snapshot lists at most (`operationErrorCount` has them all). */
export const MAX_STORED_OPERATION_ERRORS = 20;

/** One exception that escaped a client operation, as stored: its code and (redacted) message. */
export interface StoredOperationError {
  readonly code: string;
  readonly message: string;
}

/** The stored snapshot of `result`; `operationErrors` are already redacted `ErrorInfo`s. */
export function storedSnapshot(result: ExecutionResult, operationErrors: readonly ErrorInfo[] = []): JsonObject {
  const listed = operationErrors
    .slice(0, MAX_STORED_OPERATION_ERRORS)
    .map(({ code, message }): StoredOperationError => ({ code, message }));
  return {
    ...result.snapshot,
    ...(result.error !== undefined && {
      error: { code: result.error.code, message: result.error.message, details: result.error.details },
    }),
    ...(operationErrors.length > 0 && {
      operationErrors: listed as unknown as JsonObject[],
      operationErrorCount: operationErrors.length,
    }),
  } as JsonObject;
}
