import type { ExecutionOutcome } from '../enums';
import type { M3Error } from '../errors';
import type { ErrorInfo } from '../execution/ExecutionResult';
import { toErrorInfo } from '../execution/buildExecutionResult';
import type { Redactor } from '../redaction/Redactor';
import type { DiagnosticPayload } from '../trace/payloads';

/** Why a client is closing: decides the outcome when nothing failed. */
export type CloseReason = 'user' | 'kit' | 'cancel' | 'deadline' | 'connect_failed';

/** Internal close request (kit, handles, deadlines). */
export interface CloseRequest {
  readonly reason: CloseReason;
  /** Recorded before `execution.finished`, e.g. the deadline diagnostic. */
  readonly diagnostic?: DiagnosticPayload;
}

/**
 * The outcome of a closing connection: `timed_out` for a deadline, `cancelled` for a handle's
 * cancel or when work was in flight, else `failed` if any exception escaped an operation.
 */
export function closeOutcome(
  reason: CloseReason,
  interrupted: boolean,
  escaped: M3Error | undefined,
): ExecutionOutcome {
  if (reason === 'deadline') return 'timed_out';
  if (reason === 'cancel') return 'cancelled';
  if (interrupted && reason !== 'connect_failed') return 'cancelled';
  return escaped !== undefined ? 'failed' : 'completed';
}

/** The error stored with a non-completed outcome. */
export function closeError(
  outcome: ExecutionOutcome,
  request: CloseRequest,
  escaped: M3Error | undefined,
  redactor: Redactor,
): ErrorInfo | undefined {
  switch (outcome) {
    case 'failed':
      return escaped !== undefined ? toErrorInfo(escaped, redactor) : undefined;
    case 'timed_out':
      return request.diagnostic !== undefined
        ? { code: 'timeout', message: request.diagnostic.message, details: {} }
        : undefined;
    case 'cancelled':
      return { code: 'cancelled', message: 'the execution was cancelled while work was in flight', details: {} };
    default:
      return undefined;
  }
}
