import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ModelValidationError } from '../errors';
import type { JsonObject } from '../json';
import { validateServerName, type ServerDescription } from './ServerDefinition';

/** An official SDK server object: a high-level `McpServer` or a low-level `Server`. */
export type SdkServer = McpServer | Server;

/** Options of an `InProcessServer`. */
export interface InProcessServerOptions {
  /** Binding name used in traces and assertions. */
  name: string;
  /** Builds a fresh server for each connection (state never leaks between connections). */
  factory: () => SdkServer | Promise<SdkServer>;
}

/**
 * An official SDK server run inside the test process and linked to the client in memory. The
 * factory is called once per connection; constructing this does nothing else.
 */
export class InProcessServer {
  readonly kind = 'in_process' as const;
  readonly name: string;
  readonly factory: () => SdkServer | Promise<SdkServer>;

  constructor(options: InProcessServerOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new ModelValidationError('InProcessServer needs options: new InProcessServer({ name, factory })');
    }
    this.name = validateServerName(options.name, 'InProcessServer');
    if (typeof options.factory !== 'function') {
      throw new ModelValidationError(
        `InProcessServer ${this.name} needs a factory function returning an McpServer or Server`,
      );
    }
    this.factory = options.factory;
    Object.freeze(this);
  }

  /** Name, transport and target (`in-memory`). */
  describe(): ServerDescription {
    return { name: this.name, transport: 'in_process', target: 'in-memory' };
  }

  /** JSON form (the factory is not serializable). */
  toJSON(): JsonObject {
    return { kind: this.kind, name: this.name };
  }
}
