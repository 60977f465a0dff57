import type { Client as V2Client } from '@modelcontextprotocol/client';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ListenFilter, ModernConnection, SdkSession } from './SdkSession';

type Params = Record<string, unknown> | undefined;

/**
 * The SDK v2 `Client` on a 2026-07-28 connection, seen through the operations' `SdkSession`
 * interface. Every request goes through the v2 client's own `request()` (era-gated, `_meta`
 * envelope attached, `input_required` rounds fulfilled), one page at a time and never from the
 * v2 client's response cache: the list helpers of the v2 client would aggregate pages and serve
 * results from cache, and a test must see what the server sends.
 */
export class ModernSdkSession implements ModernConnection {
  /** The connected v2 client. */
  readonly client: V2Client;

  constructor(client: V2Client) {
    this.client = client;
  }

  /** A session the operations can use in place of a v1 `Client`. */
  asSession(): SdkSession {
    return this as unknown as SdkSession;
  }

  request(
    request: { method: string; params?: Params },
    _v1Schema: unknown,
    options?: RequestOptions,
  ): Promise<unknown> {
    return this.send(request.method, request.params, options);
  }

  listResources(params: Params, options?: RequestOptions): Promise<unknown> {
    return this.send('resources/list', params, options);
  }

  listResourceTemplates(params: Params, options?: RequestOptions): Promise<unknown> {
    return this.send('resources/templates/list', params, options);
  }

  listPrompts(params: Params, options?: RequestOptions): Promise<unknown> {
    return this.send('prompts/list', params, options);
  }

  readResource(params: Params, options?: RequestOptions): Promise<unknown> {
    return this.send('resources/read', params, options);
  }

  getPrompt(params: Params, options?: RequestOptions): Promise<unknown> {
    return this.send('prompts/get', params, options);
  }

  complete(params: Params, options?: RequestOptions): Promise<unknown> {
    return this.send('completion/complete', params, options);
  }

  subscribeResource(params: Params, options?: RequestOptions): Promise<unknown> {
    return this.send('resources/subscribe', params, options);
  }

  unsubscribeResource(params: Params, options?: RequestOptions): Promise<unknown> {
    return this.send('resources/unsubscribe', params, options);
  }

  ping(options?: RequestOptions): Promise<unknown> {
    return this.send('ping', undefined, options);
  }

  setLoggingLevel(level: string, options?: RequestOptions): Promise<unknown> {
    return this.send('logging/setLevel', { level }, options);
  }

  notification(notification: { method: string; params?: Params }): Promise<void> {
    return this.client.notification(notification as Parameters<V2Client['notification']>[0]);
  }

  sendRootsListChanged(): Promise<void> {
    return this.client.sendRootsListChanged();
  }

  close(): Promise<void> {
    return this.client.close();
  }

  discover(options?: RequestOptions): Promise<unknown> {
    return this.client.discover(options as never);
  }

  callToolMirroringHeaders(
    params: { name: string; arguments: Record<string, unknown> },
    definition: { name: string; inputSchema: object },
    options?: RequestOptions,
  ): Promise<unknown> {
    const { outputSchema: _checkedByTheKit, ...toolDefinition } = definition as typeof definition & {
      outputSchema?: unknown;
    };
    const callTool = this.client.callTool as (p: unknown, o?: unknown) => Promise<unknown>;
    return callTool.call(this.client, params, { ...options, toolDefinition });
  }

  listen(filter: ListenFilter, options?: RequestOptions): Promise<{ close(): Promise<void> }> {
    return this.client.listen(filter, options as never);
  }

  private send(method: string, params: Params, options?: RequestOptions): Promise<unknown> {
    const request = { method, ...(params !== undefined && { params }) };
    return (this.client.request as (r: unknown, o?: unknown) => Promise<unknown>).call(this.client, request, options);
  }
}
