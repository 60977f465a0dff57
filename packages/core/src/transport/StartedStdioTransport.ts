import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { ChildProcessHandle } from './ChildProcessHandle';
import type { StdioConnectionEnd } from './StdioConnectionEnd';

type MessageHandler = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

/**
 * The SDK stdio transport after `openTransport` started it (so the child's pid and startup errors
 * are known before MCP begins). `start()` is a no-op that delivers anything the child said early;
 * `close()` notes the child's descendants before the SDK closes stdin, so they can be reaped even
 * once orphaned.
 */
export class StartedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: MessageHandler;
  private readonly early: Array<[JSONRPCMessage, MessageExtraInfo | undefined]> = [];
  private startCalled = false;
  private closedEarly = false;

  constructor(
    private readonly inner: StdioClientTransport,
    private readonly handle: ChildProcessHandle,
    /** Told about the SDK transport's errors, so a buffer-limit close is named as such. */
    private readonly end?: StdioConnectionEnd,
  ) {
    inner.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
      if (this.startCalled && this.onmessage !== undefined) this.onmessage(message, extra);
      else this.early.push([message, extra]);
    };
    inner.onclose = () => {
      if (this.startCalled) this.onclose?.();
      else this.closedEarly = true;
    };
    inner.onerror = (error: Error) => {
      this.end?.noteTransportError(error);
      this.onerror?.(error);
    };
  }

  /** Already started by `openTransport`: hands over early messages (and an early close). */
  async start(): Promise<void> {
    this.startCalled = true;
    for (const [message, extra] of this.early.splice(0)) this.onmessage?.(message, extra);
    if (this.closedEarly) this.onclose?.();
  }

  /** Writes the message to the child's stdin. */
  send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message);
  }

  /** Closes stdin (the SDK then escalates to SIGTERM/SIGKILL); descendants are noted first. */
  async close(): Promise<void> {
    this.handle.rememberDescendants();
    await this.inner.close();
  }
}
