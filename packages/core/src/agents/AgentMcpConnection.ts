import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { openCassetteTransport } from '../cassettes/servers/openCassetteTransport';
import type { McpServerTape } from '../cassettes/servers/McpServerTape';
import { sdkTypes } from '../client/sdkTypes';
import { createSdkClient } from '../client/createSdkClient';
import { listAll } from '../client/listAll';
import { newId } from '../ids';
import type { JsonObject } from '../json';
import type { M3Logger } from '../logging/logger';
import type { Redactor } from '../redaction/Redactor';
import type { ServerDefinition } from '../servers/ServerDefinition';
import type { TraceRecorder } from '../trace/TraceRecorder';
import { ObservedTransport } from '../transport/ObservedTransport';
import { openTransport, type OpenedTransport } from '../transport/openTransport';

/** What a tool call through MCP gave back, in the shape the model is shown. */
export interface McpToolOutcome {
  readonly content: JsonObject[];
  readonly structuredContent?: JsonObject;
  readonly isError: boolean;
}

/**
 * One MCP connection of an agent execution. It records into the execution's shared recorder
 * through the kit's own transport machinery (`openTransport` + `ObservedTransport`), so every
 * `tools/list` and `tools/call` is wire evidence in the same trace, tagged with the current turn.
 */
export class AgentMcpConnection {
  readonly server: ServerDefinition;
  private readonly connectionId = newId('conn');
  private opened: OpenedTransport | undefined;
  private sdk: Client | undefined;
  private closing: Promise<void> | undefined;
  /** The transport being opened, so `close()` can reap a child that starts while it closes. */
  private opening: Promise<OpenedTransport> | undefined;

  constructor(
    server: ServerDefinition,
    private readonly recorder: TraceRecorder,
    private readonly redactor: Redactor,
    private readonly logger: M3Logger,
    private readonly scope: () => { sessionId?: string; turnId?: string },
    /** The server's cassette tape (contract §24): recorded live, or replayed without starting it. */
    private readonly tape?: McpServerTape,
  ) {
    this.server = server;
  }

  /** Starts the transport and runs `initialize`. */
  async connect(signal: AbortSignal): Promise<void> {
    const options = { redactor: this.redactor, recorder: this.recorder, connectionId: this.connectionId };
    this.opening =
      this.tape === undefined
        ? openTransport(this.server, options)
        : openCassetteTransport(this.server, options, this.tape);
    this.opened = await this.opening;
    if (this.closing !== undefined) {
      await this.opened.reap();
      throw new Error(`MCP server '${this.server.name}' was closed while it was starting`);
    }
    const observed = new ObservedTransport(this.opened.transport, {
      recorder: this.recorder,
      server: this.server.name,
      connectionId: this.connectionId,
      scope: this.scope,
    });
    const { sdk, tap } = createSdkClient(observed, {}, this.logger);
    this.sdk = sdk;
    await sdk.connect(tap, { signal });
  }

  /** Every tool of the server, following cursors. */
  listTools(signal: AbortSignal): Promise<Tool[]> {
    const sdk = this.client();
    return listAll('tools/list', async (cursor) => {
      const page = await sdk.request(
        { method: 'tools/list', ...(cursor !== undefined && { params: { cursor } }) },
        sdkTypes().ListToolsResultSchema,
        { signal },
      );
      return { items: page.tools, nextCursor: page.nextCursor };
    });
  }

  /** `tools/call`; a server answering `isError: true` is a normal outcome. */
  async callTool(name: string, args: JsonObject, signal: AbortSignal, timeoutMs: number): Promise<McpToolOutcome> {
    const result = await this.client().request(
      { method: 'tools/call', params: { name, arguments: args } },
      sdkTypes().CallToolResultSchema,
      { signal, timeout: timeoutMs },
    );
    return {
      content: (result.content ?? []) as JsonObject[],
      ...(result.structuredContent !== undefined && { structuredContent: result.structuredContent as JsonObject }),
      isError: result.isError === true,
    };
  }

  /** Closes the client and reaps a child process; idempotent, never throws. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        await this.sdk?.close();
      } catch (error) {
        this.logger.debug('closing an agent MCP connection failed', { errorType: (error as Error).constructor?.name });
      }
      try {
        const opened = this.opened ?? (await this.opening?.catch(() => undefined));
        await opened?.reap();
      } catch (error) {
        this.recorder.addLimitation('cleanup_failed');
        this.logger.warn('reaping an agent MCP server failed', { errorType: (error as Error).constructor?.name });
      }
    })();
    return this.closing;
  }

  private client(): Client {
    if (this.sdk === undefined) throw new Error(`MCP server '${this.server.name}' is not connected`);
    return this.sdk;
  }
}
