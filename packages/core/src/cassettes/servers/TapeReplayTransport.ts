import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerTape } from './McpServerTape';
import { isRequestMessage } from './mcpTapeMessages';

/**
 * An MCP transport answered from a cassette tape (contract §24): nothing is started or connected.
 * Every request the client sends is answered with the recorded messages (the agent's own id), or
 * a JSON-RPC error naming the miss; what the client sends otherwise (notifications, answers to
 * recorded server requests) goes nowhere. Answers arrive on a later tick, as from a real peer, so
 * an observer records the request before its answer.
 */
export class TapeReplayTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private closed = false;

  constructor(private readonly tape: McpServerTape) {}

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`the replayed MCP server ${this.tape.serverName} is closed`));
    if (!isRequestMessage(message)) return Promise.resolve();
    const answers = this.tape.answer(message);
    setImmediate(() => {
      for (const answer of answers) {
        if (this.closed) return;
        this.onmessage?.(answer);
      }
    });
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.onclose?.();
    }
    return Promise.resolve();
  }
}
