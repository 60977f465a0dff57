import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerTape } from './McpServerTape';
import { isRequestMessage, isResponseMessage, type McpRequestMessage } from './mcpTapeMessages';

/**
 * Wraps a live MCP transport and records every exchange on the server's tape (contract §24): each
 * client request with the server's answer, and the messages the server sent since the previous
 * answer (notifications, its own requests) as what came before it. An answer is recorded before
 * the client sees it. The messages themselves pass unchanged.
 */
export class TapeRecordingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  /** Client requests waiting for their answer, by JSON-encoded id. */
  private readonly pending = new Map<string, McpRequestMessage>();
  private before: JSONRPCMessage[] = [];

  constructor(
    private readonly inner: Transport,
    private readonly tape: McpServerTape,
  ) {
    inner.onmessage = (message, extra) => {
      this.observe(message);
      this.onmessage?.(message, extra);
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.onclose?.();
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isRequestMessage(message)) this.pending.set(JSON.stringify(message.id), message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  private observe(message: JSONRPCMessage): void {
    const key = isResponseMessage(message) ? JSON.stringify(message.id) : undefined;
    const request = key === undefined ? undefined : this.pending.get(key);
    if (key === undefined || request === undefined) {
      this.before.push(message);
      return;
    }
    this.pending.delete(key);
    this.tape.record(request, message, this.before);
    this.before = [];
  }
}
