import { M3Error } from '../errors';
import type { ErrorInfo } from '../execution/ExecutionResult';

/** True for an `ErrorInfo` object (as opposed to a thrown error). */
export function isErrorInfo(value: unknown): value is ErrorInfo {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof Error) &&
    typeof (value as ErrorInfo).code === 'string' &&
    typeof (value as ErrorInfo).message === 'string'
  );
}

/** A model/provider failure as an `M3Error` with a safe code (status only, never the body's secrets). */
export function providerError(error: unknown): M3Error {
  if (error instanceof M3Error) return error;
  const status = (error as { status?: unknown }).status;
  const message = error instanceof Error ? error.message : String(error);
  return new M3Error('provider_error', `the model endpoint failed: ${message}`, {
    ...(typeof status === 'number' && { status }),
  });
}
