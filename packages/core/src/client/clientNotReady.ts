import { ClientNotReady } from '../errors';

/** A direct client property that only exists once the client reached a later state. */
export type LateProperty = 'initialization' | 'result' | 'finalTrace';

/** Where the client is when the property is read. */
export interface ClientProgress {
  readonly property: LateProperty;
  readonly state: 'new' | 'connecting' | 'open' | 'closing' | 'closed';
  /** False when the client was closed before `connect()` started: no execution exists. */
  readonly everConnected: boolean;
  readonly executionId: string;
}

/**
 * The error for reading `initialization`, `result` or `finalTrace` too early (or on a client that
 * never got that far): the message says which call to await first.
 */
export function clientNotReady(progress: ClientProgress): ClientNotReady {
  const { property, state, everConnected, executionId } = progress;
  const details = { property, state, executionId };
  const name = `client.${property}`;
  if (state === 'closed' && !everConnected) {
    return new ClientNotReady(
      `${name} does not exist: the client was closed before it connected, so nothing was recorded; ` +
        'use kit.direct(server).connect() and close it after your operations',
      details,
    );
  }
  if (property === 'initialization') {
    if (state === 'closing' || state === 'closed') {
      return new ClientNotReady(
        `${name} does not exist: the client closed before initialize completed (connect failed or was cancelled); ` +
          'client.result.error says why',
        details,
      );
    }
    return new ClientNotReady(
      `${name} is not available yet: await client.connect() (kit.direct(server).connect()) or client.initialize() first`,
      details,
    );
  }
  return new ClientNotReady(
    `${name} is set once the client is closed: await client.close() first (client.trace is the live, partial trace)`,
    details,
  );
}
