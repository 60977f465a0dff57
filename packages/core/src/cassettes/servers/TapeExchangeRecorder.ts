import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerTape } from './McpServerTape';
import { isRequestMessage, isResponseMessage, type McpRequestMessage } from './mcpTapeMessages';

/**
 * Pairs the messages of one live MCP connection into tape exchanges (contract §24): each request
 * the client sent on to the server with the server's answer, and what the server sent since its
 * previous answer (notifications, its own requests) as what came before it. Shared by every
 * recording path (the kit's transport, the capture proxy's frames, the HTTP reverse proxy).
 */
export class TapeExchangeRecorder {
  /** Client requests waiting for their answer, by JSON-encoded id. */
  private readonly pending = new Map<string, McpRequestMessage>();
  private before: JSONRPCMessage[] = [];

  constructor(private readonly tape: McpServerTape) {}

  /** A message the client sent that reached the server (requests are remembered; the rest ignored). */
  fromClient(message: unknown): void {
    if (isRequestMessage(message)) this.pending.set(JSON.stringify(message.id), message);
  }

  /** A message the server sent: the answer to a remembered request is recorded, the rest kept for it. */
  fromServer(message: unknown): void {
    const key = isResponseMessage(message) ? JSON.stringify(message.id) : undefined;
    const request = key === undefined ? undefined : this.pending.get(key);
    if (key === undefined || request === undefined) {
      this.before.push(message as JSONRPCMessage);
      return;
    }
    this.pending.delete(key);
    this.tape.record(request, message as JSONRPCMessage, this.before);
    this.before = [];
  }
}
