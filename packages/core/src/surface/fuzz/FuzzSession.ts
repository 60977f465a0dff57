import type { DirectClient } from '../../client/DirectClient';
import { OperationTimeout, ProtocolError, TransportError } from '../../errors';
import type { MCPTestKit } from '../../kit/MCPTestKit';
import type { ServerDefinition } from '../../servers/ServerDefinition';

/** What one fuzzed call came back with. */
export type CallOutcome =
  | { readonly kind: 'result'; readonly isError: boolean; readonly structuredContent: unknown }
  | { readonly kind: 'protocol_error'; readonly code: number | null; readonly message: string }
  | { readonly kind: 'crash'; readonly message: string }
  | { readonly kind: 'hang'; readonly message: string }
  | { readonly kind: 'unexpected_error'; readonly message: string }
  | { readonly kind: 'connect_failed'; readonly message: string };

/** How long connecting (spawn + initialize) may take: a slow start is not a hang of the tool. */
export const FUZZ_CONNECT_TIMEOUT_MS = 30_000;

/**
 * The connection a tool is fuzzed over. One connection serves many inputs (a stdio child is
 * spawned once, not per input); after a crash or a hang it is closed, which reaps the server
 * process (`client/reapServer.ts`), and the next input gets a fresh connection.
 */
export class FuzzSession {
  private client: DirectClient | null = null;
  private readonly executions: string[] = [];
  private reconnects = 0;

  constructor(
    private readonly kit: MCPTestKit,
    private readonly server: ServerDefinition,
    private readonly timeoutMs: number,
  ) {}

  /** Ids of the executions (connections) opened so far, first one first. */
  get executionIds(): readonly string[] {
    return this.executions;
  }

  /** How many times a crash or hang forced a fresh connection. */
  get reconnectCount(): number {
    return this.reconnects;
  }

  /** The open connection, opened on first use. */
  async connection(): Promise<DirectClient> {
    if (this.client === null) {
      const timeoutMs = Math.max(this.timeoutMs, FUZZ_CONNECT_TIMEOUT_MS);
      const client = await this.kit.direct(this.server, { timeoutMs }).connect();
      this.executions.push(client.executionId);
      this.client = client;
    }
    return this.client;
  }

  /** Calls the tool and classifies what happened; never throws for what the server did. */
  async call(tool: string, args: Record<string, unknown>): Promise<CallOutcome> {
    let client: DirectClient;
    try {
      client = await this.connection();
    } catch (error) {
      return { kind: 'connect_failed', message: error instanceof Error ? error.message : String(error) };
    }
    try {
      const result = await client.callTool(tool, args, { timeoutMs: this.timeoutMs });
      return { kind: 'result', isError: result.isError, structuredContent: result.structuredContent };
    } catch (error) {
      const outcome = classify(error);
      if (outcome.kind === 'crash' || outcome.kind === 'hang') await this.reset();
      return outcome;
    }
  }

  /** Closes the connection (reaping its server); the next call reconnects. */
  async reset(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (client === null) return;
    this.reconnects += 1;
    await client.close().catch(() => undefined);
  }

  /** Closes the connection for good. */
  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.close().catch(() => undefined);
  }
}

function classify(error: unknown): CallOutcome {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof OperationTimeout) return { kind: 'hang', message };
  if (error instanceof TransportError) return { kind: 'crash', message };
  if (error instanceof ProtocolError) {
    const code = (error.details as { protocolCode?: unknown }).protocolCode;
    return { kind: 'protocol_error', code: typeof code === 'number' ? code : null, message };
  }
  return { kind: 'unexpected_error', message };
}
