import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';

/** The part of an SDK client the direct client's operations use (the v1 `Client` has it all). */
export type SdkSession = Pick<
  Client,
  | 'request'
  | 'listResources'
  | 'listResourceTemplates'
  | 'listPrompts'
  | 'readResource'
  | 'getPrompt'
  | 'complete'
  | 'subscribeResource'
  | 'unsubscribeResource'
  | 'ping'
  | 'setLoggingLevel'
  | 'notification'
  | 'sendRootsListChanged'
  | 'close'
>;

/**
 * What the direct client needs beyond `SdkSession` on a 2026-07-28 connection (kept free of the
 * SDK v2's types, so the kit's published typings do not pull them in).
 */
export interface ModernConnection {
  /** Sends `server/discover`. */
  discover(options?: RequestOptions): Promise<unknown>;
  /**
   * `tools/call` through the v2 client's `callTool` with the tool's listed definition, so the SDK
   * mirrors the arguments its `inputSchema` marks with `x-mcp-header` into `Mcp-Param-{Name}`
   * HTTP headers (SEP-2243). The definition goes without `outputSchema`: the kit checks results
   * itself (`validateSchemas`), the SDK must not.
   */
  callToolMirroringHeaders(
    params: { name: string; arguments: Record<string, unknown> },
    definition: { name: string; inputSchema: object },
    options?: RequestOptions,
  ): Promise<unknown>;
  /** Opens `subscriptions/listen`; resolves once the server acknowledged it. */
  listen(filter: ListenFilter, options?: RequestOptions): Promise<{ close(): Promise<void> }>;
}

/** The `subscriptions/listen` filter of the 2026-07-28 revision. */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}
