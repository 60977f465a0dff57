import { M3Error } from '../errors';

/** An operation on a closed client: create a new one. */
export function clientClosedError(operation: string, executionId: string): M3Error {
  return new M3Error(
    'client_closed',
    `direct client is closed: ${operation} needs an open connection; create a new one with kit.direct(server).connect()`,
    { operation, executionId },
  );
}

/** An operation before `connect()` finished. */
export function notConnectedError(operation: string): M3Error {
  return new M3Error(
    'client_not_connected',
    `direct client is not connected: await client.connect() before ${operation}`,
    {
      operation,
    },
  );
}

/** `connect()` noticed that `close()` ran while it was connecting: nothing more may be started. */
export function connectCancelledError(): M3Error {
  return new M3Error('cancelled', 'connect was cancelled: the client was closed while connecting');
}
