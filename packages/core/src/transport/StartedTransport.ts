import { PassThroughTransport } from './PassThroughTransport';

/**
 * A transport that something already started (the kit's `server/discover` probe), handed on to a
 * client whose `connect()` starts its transport again: `start()` does nothing, everything else
 * passes through to the inner transport.
 */
export class StartedTransport extends PassThroughTransport {
  /** Already started: nothing to do. */
  override start(): Promise<void> {
    return Promise.resolve();
  }
}
