import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { PassThroughTransport } from '../transport/PassThroughTransport';

/**
 * A pass-through transport between the SDK `Client` and the observed transport. It tells the
 * direct client the JSON-RPC id of each request it sends (the SDK sends synchronously inside
 * `request()`, so `captureIds` can attribute ids to the operation that is starting), asks for the
 * configured protocol revision at `initialize`, and remembers the negotiated revision.
 */
export class RequestTap extends PassThroughTransport {
  private readonly requestedProtocolVersion: string | undefined;
  private capture: ((id: string | number) => void) | undefined;
  /** The protocol revision the SDK settled on after `initialize`. */
  negotiatedProtocolVersion: string | undefined;

  constructor(inner: Transport, options: { protocolVersion?: string } = {}) {
    super(inner);
    this.requestedProtocolVersion = options.protocolVersion;
  }

  /** Runs `start` and hands every request id it sends synchronously to `onId`. */
  captureIds<T>(onId: (id: string | number) => void, start: () => T): T {
    const previous = this.capture;
    this.capture = onId;
    try {
      return start();
    } finally {
      this.capture = previous;
    }
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    let outgoing = message;
    if ('method' in message && 'id' in message) {
      if (message.method === 'initialize' && this.requestedProtocolVersion !== undefined) {
        outgoing = { ...message, params: { ...message.params, protocolVersion: this.requestedProtocolVersion } };
      }
      this.capture?.(message.id);
    }
    return this.inner.send(outgoing, options);
  }

  override setProtocolVersion(version: string): void {
    this.negotiatedProtocolVersion = version;
    this.inner.setProtocolVersion?.(version);
  }
}
