import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ListToolsResult, LoggingLevel, Tool } from '@modelcontextprotocol/sdk/types.js';
import { sdkTypes } from './sdkTypes';
import { ModelValidationError, UnsupportedFeature } from '../errors';
import type { ToolCallResult } from '../execution/ExecutionResult';
import { linkToKit } from '../ownership/kitLink';
import type { ServerDefinition } from '../servers/ServerDefinition';
import type { DirectClientHost, ExecutionContext } from './DirectClientHost';
import { declaredCapabilities } from './clientCapabilities';
import { checkTimeoutMs, type CallToolOptions, type DirectClientOptions } from './DirectClientOptions';
import { DirectOperations } from './DirectOperations';
import { cacheHintsOf } from './cacheHints';
import { listAll } from './listAll';
import { checkLoggingLevel, cursorParams, requireString } from './operationArguments';
import type {
  ClientNotificationMessage,
  CompletionArgument,
  CompletionContext,
  CompletionReference,
  CompletionResult,
  DiscoverResult,
  GetPromptResult,
  Prompt,
  PromptsPage,
  Resource,
  ResourceReadResult,
  ResourcesPage,
  ResourceTemplate,
  ResourceTemplatesPage,
  ToolsPage,
} from './results';
import { ToolSchemaValidator } from './ToolSchemaValidator';
import { toolListingMemory } from '../surface/lint/ToolListingMemory';
import { linkToolListing } from '../surface/lint/toolListingLink';
import { NotificationLog, type ReceivedNotification } from './NotificationLog';
import { checkListenOptions, type ListenOptions } from './listenOptions';
import type { ListenFilter } from './SdkSession';

import type { CloseRequest } from './closeOutcome';

export type { CloseReason, CloseRequest } from './closeOutcome';

/**
 * One MCP connection under test (contract §4). Made by `kit.direct(server, options)`, unconnected;
 * `connect()` starts the transport, runs `initialize` and starts recording the execution's trace;
 * `close()` cancels what is in flight, closes the connection, reaps the child process, finalizes
 * the trace and saves the execution (see `DirectConnection`; requests go through
 * `DirectOperations`). Tool errors come back as results; the exceptions are the contract §4 classes.
 */
export class DirectClient extends DirectOperations {
  private readonly validator: ToolSchemaValidator | undefined;
  private toolCache: Promise<Map<string, Tool>> | undefined;
  /** The tools as last listed on this connection: the source of `Mcp-Param-*` headers (2026-07-28). */
  private readonly listedTools = new Map<string, Tool>();
  private notificationLog: NotificationLog | undefined;

  /** Use `kit.direct(server, options)`; the constructor is for the kit and spec runners. */
  constructor(
    host: DirectClientHost,
    server: ServerDefinition,
    options: DirectClientOptions,
    context: ExecutionContext,
  ) {
    super(host, server, options, context);
    this.validator = this.options.validateSchemas === true ? new ToolSchemaValidator() : undefined;
  }

  /**
   * `server/discover` (contract §23): what a 2026-07-28 server says about itself. Throws
   * `UnsupportedFeature` on a legacy-era connection, which has no such method.
   */
  discover(): Promise<DiscoverResult> {
    return this.operation('server/discover', async () => {
      const modern = this.modern;
      if (modern === undefined) {
        throw new UnsupportedFeature(
          `discover needs a 2026-07-28 connection; ${this.server.name} was reached through the 2025 initialize handshake ` +
            "(use protocol: 'auto' or '2026-07-28' against a server that serves the stateless era)",
          { operation: 'server/discover', era: 'legacy' },
        );
      }
      return (await this.request('server/discover', (o) => modern.discover(o))) as DiscoverResult;
    });
  }

  /** `tools/list`, one page. */
  listTools(options: { cursor?: string } = {}): Promise<ToolsPage> {
    return this.operation('tools/list', async () => {
      const page = await this.request('tools/list', (o) => this.listToolsPage(options.cursor, o));
      this.remember(page.tools);
      return { tools: this.listed(page.tools), nextCursor: page.nextCursor, ...cacheHintsOf(page) };
    });
  }

  /** Every tool, following cursors; a repeated cursor throws `ProtocolError`. */
  listAllTools(): Promise<Tool[]> {
    return this.operation('tools/list', async () => this.listed(await this.fetchAllTools()));
  }

  /**
   * A listing handed to the test: remembered for `silent_redefinition` and linked to this client
   * and its kit, so `toPassToolLint` can compare it with the trace's listings (contract §25).
   */
  private listed(tools: Tool[]): Tool[] {
    toolListingMemory().remember(this.server.name, tools, `execution ${this.executionId}`);
    linkToolListing(tools, {
      server: this.server.name,
      executionId: this.executionId,
      traceEvents: () => this.trace.events,
    });
    return linkToKit(tools, this.host.linkTarget);
  }

  /** `resources/list`, one page. */
  listResources(options: { cursor?: string } = {}): Promise<ResourcesPage> {
    return this.operation('resources/list', async () => {
      const page = await this.request('resources/list', (o) =>
        this.sdkClient.listResources(cursorParams(options.cursor), o),
      );
      return { resources: page.resources, nextCursor: page.nextCursor, ...cacheHintsOf(page) };
    });
  }

  /** Every resource, following cursors. */
  listAllResources(): Promise<Resource[]> {
    return this.operation('resources/list', () =>
      listAll('resources/list', async (cursor) => {
        const page = await this.request('resources/list', (o) => this.sdkClient.listResources(cursorParams(cursor), o));
        return { items: page.resources, nextCursor: page.nextCursor };
      }),
    );
  }

  /** `resources/templates/list`, one page. */
  listResourceTemplates(options: { cursor?: string } = {}): Promise<ResourceTemplatesPage> {
    return this.operation('resources/templates/list', async () => {
      const page = await this.request('resources/templates/list', (o) =>
        this.sdkClient.listResourceTemplates(cursorParams(options.cursor), o),
      );
      return { resourceTemplates: page.resourceTemplates, nextCursor: page.nextCursor, ...cacheHintsOf(page) };
    });
  }

  /** Every resource template, following cursors. */
  listAllResourceTemplates(): Promise<ResourceTemplate[]> {
    return this.operation('resources/templates/list', () =>
      listAll('resources/templates/list', async (cursor) => {
        const page = await this.request('resources/templates/list', (o) =>
          this.sdkClient.listResourceTemplates(cursorParams(cursor), o),
        );
        return { items: page.resourceTemplates, nextCursor: page.nextCursor };
      }),
    );
  }

  /** `prompts/list`, one page. */
  listPrompts(options: { cursor?: string } = {}): Promise<PromptsPage> {
    return this.operation('prompts/list', async () => {
      const page = await this.request('prompts/list', (o) =>
        this.sdkClient.listPrompts(cursorParams(options.cursor), o),
      );
      return { prompts: page.prompts, nextCursor: page.nextCursor, ...cacheHintsOf(page) };
    });
  }

  /** Every prompt, following cursors. */
  listAllPrompts(): Promise<Prompt[]> {
    return this.operation('prompts/list', () =>
      listAll('prompts/list', async (cursor) => {
        const page = await this.request('prompts/list', (o) => this.sdkClient.listPrompts(cursorParams(cursor), o));
        return { items: page.prompts, nextCursor: page.nextCursor };
      }),
    );
  }

  /** `resources/read`; `.text` joins the text of every text content. */
  readResource(uri: string): Promise<ResourceReadResult> {
    return this.operation('resources/read', async () => {
      requireString(uri, 'readResource(uri)');
      const result = await this.request('resources/read', (o) => this.sdkClient.readResource({ uri }, o));
      const text = result.contents.map((c) => ('text' in c && typeof c.text === 'string' ? c.text : '')).join('');
      // Linked like a tool result, so `toHaveText` on a read is saved with its execution.
      const read: ResourceReadResult = { contents: result.contents, text, executionId: this.executionId };
      return linkToKit(read, this.host.linkTarget);
    });
  }

  /** `prompts/get` with string arguments. */
  getPrompt(name: string, args: Record<string, string> = {}): Promise<GetPromptResult> {
    return this.operation('prompts/get', async () => {
      requireString(name, 'getPrompt(name)');
      return this.request('prompts/get', (o) => this.sdkClient.getPrompt({ name, arguments: args }, o));
    });
  }

  /**
   * `tools/call`. A server answering `isError: true` is a normal result. With `validateSchemas`
   * the arguments are checked before anything is sent and `structuredContent` after. `T` types
   * `structuredContent` (default `unknown`); without `validateSchemas` nothing checks it at run time.
   */
  callTool<T = unknown>(
    name: string,
    args: Record<string, unknown> = {},
    options: CallToolOptions = {},
  ): Promise<ToolCallResult<T>> {
    return this.operation('tools/call', async () => {
      requireString(name, 'callTool(name)');
      const timeoutMs = checkTimeoutMs(options.timeoutMs) ?? this.timeoutMs;
      if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
        throw new ModelValidationError('callTool onProgress must be a function');
      }
      const tool = this.validator !== undefined ? (await this.cachedTools()).get(name) : undefined;
      if (tool !== undefined) this.validator?.validateArguments(tool, args);
      const modern = this.modern;
      const listed = tool ?? this.listedTools.get(name);
      const result = await this.request(
        'tools/call',
        (o) =>
          modern !== undefined && listed !== undefined
            ? (modern.callToolMirroringHeaders({ name, arguments: args }, listed, o) as Promise<CallToolResult>)
            : this.sdkClient.request(
                { method: 'tools/call', params: { name, arguments: args } },
                sdkTypes().CallToolResultSchema,
                o,
              ),
        { timeoutMs, ...(options.onProgress !== undefined && { onProgress: options.onProgress }) },
      );
      const isError = result.isError === true;
      if (tool !== undefined) this.validator?.validateResult(tool, result.structuredContent, isError);
      const toolResult: ToolCallResult<T> = {
        content: (result.content ?? []) as ToolCallResult['content'],
        ...(result.structuredContent !== undefined && { structuredContent: result.structuredContent as T }),
        isError,
        executionId: this.executionId,
        tool: name,
        server: this.server.name,
      };
      return linkToKit(toolResult, this.host.linkTarget);
    });
  }

  /** `completion/complete`. */
  complete(
    ref: CompletionReference,
    argument: CompletionArgument,
    context?: CompletionContext,
  ): Promise<CompletionResult> {
    return this.operation('completion/complete', async () => {
      const result = await this.request('completion/complete', (o) =>
        this.sdkClient.complete({ ref, argument, ...(context !== undefined && { context }) }, o),
      );
      return {
        values: result.completion.values,
        total: result.completion.total ?? null,
        hasMore: result.completion.hasMore ?? false,
      };
    });
  }

  /** `resources/subscribe`. */
  subscribeResource(uri: string): Promise<void> {
    return this.operation('resources/subscribe', async () => {
      requireString(uri, 'subscribeResource(uri)');
      await this.request('resources/subscribe', (o) => this.sdkClient.subscribeResource({ uri }, o));
    });
  }

  /** `resources/unsubscribe`. */
  unsubscribeResource(uri: string): Promise<void> {
    return this.operation('resources/unsubscribe', async () => {
      requireString(uri, 'unsubscribeResource(uri)');
      await this.request('resources/unsubscribe', (o) => this.sdkClient.unsubscribeResource({ uri }, o));
    });
  }

  /**
   * Starts listening for change notifications (contract §23), the same call in both eras: on a
   * 2026-07-28 connection it opens `subscriptions/listen` with the matching filter; on a legacy one
   * the session stream already carries list-changed notifications and each of `resourceUris` is
   * subscribed with `resources/subscribe`. Resolves once listening is established.
   */
  listen(options: ListenOptions): Promise<void> {
    return this.operation('subscriptions/listen', async () => {
      checkListenOptions(options);
      this.followNotifications();
      const uris = options.resourceUris ?? [];
      const modern = this.modern;
      if (modern !== undefined) {
        const filter: ListenFilter = {
          ...(options.toolsChanged === true && { toolsListChanged: true }),
          ...(options.promptsChanged === true && { promptsListChanged: true }),
          ...(options.resourcesChanged === true && { resourcesListChanged: true }),
          ...(uris.length > 0 && { resourceSubscriptions: [...uris] }),
        };
        await this.request('subscriptions/listen', (o) => modern.listen(filter, o));
        return;
      }
      for (const uri of uris) {
        await this.request('resources/subscribe', (o) => this.sdkClient.subscribeResource({ uri }, o));
      }
    });
  }

  /**
   * The notifications the server sent so far, in received order, with redacted params, as the
   * trace records them (`mcp.notification` events). Collected from the first `listen`,
   * `notifications` or `waitForNotification`, including what arrived before it.
   */
  get notifications(): readonly ReceivedNotification[] {
    return this.followNotifications().notifications;
  }

  /**
   * The next notification of `method`: the oldest one no earlier wait returned (so one that
   * arrived between the trigger and this call counts), else the next to arrive. Rejects with
   * `OperationTimeout` naming the method and the fix after `timeoutMs` (default: the client's).
   */
  waitForNotification(method: string, options: { timeoutMs?: number } = {}): Promise<ReceivedNotification> {
    return this.operation('waitForNotification', async () => {
      requireString(method, 'waitForNotification(method)');
      const timeoutMs = checkTimeoutMs(options.timeoutMs, 'waitForNotification timeoutMs') ?? this.timeoutMs;
      return this.followNotifications().waitFor(method, timeoutMs, this.server.name);
    });
  }

  /** @internal Closes as `DirectConnection` does, first cancelling pending `waitForNotification`s. */
  override closeWith(request: CloseRequest): Promise<void> {
    this.notificationLog?.cancelWaits(this.server.name);
    return super.closeWith(request);
  }

  /** The notification log, following the trace from its first use on. */
  private followNotifications(): NotificationLog {
    if (this.notificationLog !== undefined) return this.notificationLog;
    const log = new NotificationLog();
    const { past } = this.follow((event) => log.observe(event));
    for (const event of past) log.observe(event);
    this.notificationLog = log;
    return log;
  }

  /** `ping`. */
  ping(): Promise<void> {
    return this.operation('ping', async () => {
      await this.request('ping', (o) => this.sdkClient.ping(o));
    });
  }

  /** `logging/setLevel`; the level must be one of the eight MCP levels. */
  setLoggingLevel(level: LoggingLevel): Promise<void> {
    return this.operation('logging/setLevel', async () => {
      checkLoggingLevel(level);
      await this.request('logging/setLevel', (o) => this.sdkClient.setLoggingLevel(level, o));
    });
  }

  /** Sends any client notification (e.g. `notifications/progress`). */
  sendNotification(notification: ClientNotificationMessage): Promise<void> {
    return this.operation('notification', async () => {
      if (typeof notification !== 'object' || notification === null || typeof notification.method !== 'string') {
        throw new ModelValidationError("sendNotification needs { method: 'notifications/…', params? }");
      }
      await this.notify(notification.method, () =>
        this.sdkClient.notification(notification as Parameters<Client['notification']>[0]),
      );
    });
  }

  /** Sends `notifications/roots/list_changed`; needs the roots capability (`onRoots` declares it). */
  sendRootsListChanged(): Promise<void> {
    return this.operation('notifications/roots/list_changed', async () => {
      if (declaredCapabilities(this.options).roots?.listChanged !== true) {
        throw new ModelValidationError(
          'sendRootsListChanged needs the roots capability: pass kit.direct(server, { onRoots }) (or declare capabilities.roots.listChanged)',
          { operation: 'notifications/roots/list_changed' },
        );
      }
      await this.notify('notifications/roots/list_changed', () => this.sdkClient.sendRootsListChanged());
    });
  }

  /**
   * `tools/list` through the SDK's generic `request()`: `Client.listTools` would also compile an
   * output validator per tool, which costs time and throws on a broken schema the test may want
   * to see as `invalid_schema`.
   */
  private listToolsPage(cursor: string | undefined, options: RequestOptions): Promise<ListToolsResult> {
    const params = cursorParams(cursor);
    return this.sdkClient.request(
      { method: 'tools/list', ...(params !== undefined && { params }) },
      sdkTypes().ListToolsResultSchema,
      options,
    );
  }

  /**
   * Keeps the listed definitions: on a 2026-07-28 connection a call to a listed tool mirrors its
   * `x-mcp-header` arguments into `Mcp-Param-*` headers (SEP-2243); an unlisted tool is called
   * without them, as the spec allows (contract §23).
   */
  private remember(tools: readonly Tool[]): void {
    for (const tool of tools) this.listedTools.set(tool.name, tool);
  }

  private fetchAllTools(): Promise<Tool[]> {
    return listAll('tools/list', async (cursor) => {
      const page = await this.request('tools/list', (o) => this.listToolsPage(cursor, o));
      this.remember(page.tools);
      return { items: page.tools, nextCursor: page.nextCursor };
    });
  }

  /** The tool list used for schema validation: fetched once per connection. */
  private cachedTools(): Promise<Map<string, Tool>> {
    if (this.toolCache === undefined) {
      const fetching = this.fetchAllTools().then((tools) => new Map(tools.map((t) => [t.name, t])));
      this.toolCache = fetching;
      fetching.catch(() => {
        if (this.toolCache === fetching) this.toolCache = undefined;
      });
    }
    return this.toolCache;
  }
}
