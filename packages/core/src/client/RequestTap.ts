import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

/**
 * A pass-through transport between the SDK `Client` and the observed transport. It tells the
 * direct client the JSON-RPC id of each request it sends (the SDK sends synchronously inside
 * `request()`, so `captureIds` can attribute ids to the operation that is starting), asks for the
 * configured protocol revision at `initialize`, and remembers the negotiated revision.
 */
export class RequestTap implements Transport {
  private readonly inner: Transport;
  private readonly requestedProtocolVersion: string | undefined;
  private capture: ((id: string | number) => void) | undefined;
  /** The protocol revision the SDK settled on after `initialize`. */
  negotiatedProtocolVersion: string | undefined;

  constructor(inner: Transport, options: { protocolVersion?: string } = {}) {
    this.inner = inner;
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

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    let outgoing = message;
    if ('method' in message && 'id' in message) {
      if (message.method === 'initialize' && this.requestedProtocolVersion !== undefined) {
        outgoing = { ...message, params: { ...message.params, protocolVersion: this.requestedProtocolVersion } };
      }
      this.capture?.(message.id);
    }
    return this.inner.send(outgoing, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  get onclose(): (() => void) | undefined {
    return this.inner.onclose;
  }
  set onclose(handler: (() => void) | undefined) {
    this.inner.onclose = handler;
  }

  get onerror(): ((error: Error) => void) | undefined {
    return this.inner.onerror;
  }
  set onerror(handler: ((error: Error) => void) | undefined) {
    this.inner.onerror = handler;
  }

  get onmessage(): ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined {
    return this.inner.onmessage;
  }
  set onmessage(handler: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined) {
    this.inner.onmessage = handler;
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.negotiatedProtocolVersion = version;
    this.inner.setProtocolVersion?.(version);
  }
}
