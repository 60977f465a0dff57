import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerTape } from './McpServerTape';
import { TapeExchangeRecorder } from './TapeExchangeRecorder';

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
  private readonly exchanges: TapeExchangeRecorder;

  constructor(
    private readonly inner: Transport,
    tape: McpServerTape,
  ) {
    this.exchanges = new TapeExchangeRecorder(tape);
    inner.onmessage = (message, extra) => {
      this.exchanges.fromServer(message);
      this.onmessage?.(message, extra);
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.onclose?.();
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.exchanges.fromClient(message);
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
}
