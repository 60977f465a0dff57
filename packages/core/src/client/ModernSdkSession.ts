import type { Client as V2Client } from '@modelcontextprotocol/client';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ProtocolError } from '../errors';
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

  async callToolMirroringHeaders(
    params: { name: string; arguments: Record<string, unknown> },
    definition: { name: string; inputSchema: object },
    options?: RequestOptions,
  ): Promise<unknown> {
    const { outputSchema: _checkedByTheKit, ...toolDefinition } = definition as typeof definition & {
      outputSchema?: unknown;
    };
    const refusal = await this.invalidHeaderDeclaration(toolDefinition);
    if (refusal !== undefined) {
      throw new ProtocolError(
        `tool ${params.name} was not called: its inputSchema has an invalid x-mcp-header declaration (${refusal}). ` +
          'A 2026-07-28 client must not call such a tool (SEP-2243); fix the declaration in the server’s tool definition',
        { tool: params.name, reason: refusal },
        { code: 'invalid_tool_definition' },
      );
    }
    const callTool = this.client.callTool as (p: unknown, o?: unknown) => Promise<unknown>;
    return callTool.call(this.client, params, { ...options, toolDefinition });
  }

  /**
   * Why the tool's `x-mcp-header` declarations are invalid, by the SDK v2's own scan (the one its
   * `callTool` uses to build `Mcp-Param-*` headers; 2.4.0 keeps it on the client instance, not
   * exported), or `undefined` when they are valid or the SDK has no such scan.
   */
  private async invalidHeaderDeclaration(definition: object): Promise<string | undefined> {
    const resolve = (this.client as unknown as { _resolveXMcpHeaderScan?: unknown })._resolveXMcpHeaderScan;
    if (typeof resolve !== 'function') return undefined;
    const scan = (await resolve.call(this.client, '', definition)) as { valid?: boolean; reason?: unknown } | undefined;
    return scan?.valid === false ? String(scan.reason ?? 'rejected by the SDK') : undefined;
  }

  listen(filter: ListenFilter, options?: RequestOptions): Promise<{ close(): Promise<void> }> {
    return this.client.listen(filter, options as never);
  }

  private send(method: string, params: Params, options?: RequestOptions): Promise<unknown> {
    const request = { method, ...(params !== undefined && { params }) };
    return (this.client.request as (r: unknown, o?: unknown) => Promise<unknown>).call(this.client, request, options);
  }
}
