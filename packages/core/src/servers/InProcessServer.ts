import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ModelValidationError } from '../errors';
import type { JsonObject } from '../json';
import { validateProtocolSetting, type ProtocolSetting } from './protocolSetting';
import { validateServerName, type ServerDescription } from './ServerDefinition';

/**
 * A server object from the official SDK v2 (`@modelcontextprotocol/server`): its `McpServer` or
 * `Server`. Typed by shape so the kit does not need that package installed to build.
 */
export interface ModernSdkServer {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/** An official SDK server object: v1 (`@modelcontextprotocol/sdk`) or v2 `McpServer` / `Server`. */
export type SdkServer = McpServer | Server | ModernSdkServer;

/** What an `InProcessServer` factory receives, as the SDK v2's own server factories do. */
export interface InProcessServerContext {
  /** The era the connection is served in: `legacy` (2025 handshake) or `modern` (2026-07-28). */
  readonly era: 'legacy' | 'modern';
}

/** Builds a fresh server for one connection. */
export type InProcessServerFactory = (context: InProcessServerContext) => SdkServer | Promise<SdkServer>;

/** Options of an `InProcessServer`. */
export interface InProcessServerOptions {
  /** Binding name used in traces and assertions. */
  name: string;
  /** Builds a fresh server for each connection (state never leaks between connections). */
  factory: InProcessServerFactory;
  /** How the connection picks its protocol era: `'auto'` (default), `'legacy'` or a revision to pin (contract §23). */
  protocol?: ProtocolSetting;
}

/**
 * An official SDK server run inside the test process and linked to the client in memory. The
 * factory is called once per connection; constructing this does nothing else.
 */
export class InProcessServer {
  readonly kind = 'in_process' as const;
  readonly name: string;
  readonly factory: InProcessServerFactory;
  /** How connections pick their protocol era (contract §23); `kit.direct(server, { protocol })` overrides it. */
  readonly protocol: ProtocolSetting;

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
    this.protocol = validateProtocolSetting(options.protocol, `InProcessServer ${this.name}`) ?? 'auto';
    Object.freeze(this);
  }

  /** Name, transport and target (`in-memory`). */
  describe(): ServerDescription {
    return { name: this.name, transport: 'in_process', target: 'in-memory' };
  }

  /** JSON form: the name, and the protocol era when pinned (the factory is not serializable). */
  toJSON(): JsonObject {
    return { kind: this.kind, name: this.name, ...(this.protocol !== 'auto' && { protocol: this.protocol }) };
  }
}
