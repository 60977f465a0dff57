import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ReadableStream, WritableStream } from 'node:stream/web';
import { M3Error } from '../../errors';

/**
 * The few parts of `@agentclientprotocol/sdk` 2.x the `acp` harness uses, declared here: the SDK is
 * ESM-only and ships as a CommonJS bundle built at `npm run build` (`vendor/acp-sdk.cjs`), so its
 * own `.d.ts` files are not importable from this CommonJS package without it being installed.
 */
export type AcpMessage = Record<string, unknown>;

/** A bidirectional stream of decoded JSON-RPC messages (the SDK's `Stream`). */
export interface AcpStream {
  readonly writable: WritableStream<AcpMessage>;
  readonly readable: ReadableStream<AcpMessage>;
}

/** What a client-side handler receives (the SDK's `ClientRequestContext`). */
export interface AcpHandlerContext {
  readonly method: string;
  readonly params: unknown;
  readonly signal: AbortSignal;
  readonly requestId?: string | number | null;
}

/** The agent side, as the client calls it (the SDK's `ClientContext`). */
export interface AcpAgentContext {
  request<Response = unknown>(method: string, params?: unknown): Promise<Response>;
  notify(method: string, params?: unknown): Promise<void>;
}

/** An open client connection (the SDK's `ClientConnection`). */
export interface AcpClientConnection {
  readonly signal: AbortSignal;
  readonly closed: Promise<void>;
  readonly agent: AcpAgentContext;
  close(error?: unknown): void;
}

/** The client app builder (the SDK's `ClientApp`). */
export interface AcpClientApp {
  onRequest(method: string, handler: (context: AcpHandlerContext) => unknown): AcpClientApp;
  onNotification(method: string, handler: (context: AcpHandlerContext) => unknown): AcpClientApp;
  connect(stream: AcpStream): AcpClientConnection;
}

/** A JSON-RPC error a handler throws to answer with that error (the SDK's `RequestError`). */
export interface AcpRequestErrorClass {
  new (code: number, message: string, data?: unknown): Error & { code: number; data?: unknown };
}

/** The loaded SDK bundle. */
export interface AcpSdk {
  client(options?: { name?: string }): AcpClientApp;
  readonly RequestError: AcpRequestErrorClass;
  readonly PROTOCOL_VERSION: number;
}

/** Where the bundle lives: `packages/core/vendor/acp-sdk.cjs` (from `src/agents/acp` or `dist/agents/acp`). */
export const ACP_SDK_BUNDLE = join(__dirname, '..', '..', '..', 'vendor', 'acp-sdk.cjs');

let loaded: AcpSdk | undefined;

/**
 * The ACP SDK, loaded on first use. Throws `M3Error('acp_sdk_missing')` naming `npm run build` when
 * the bundle was not built.
 */
export function loadAcpSdk(): AcpSdk {
  if (loaded !== undefined) return loaded;
  if (!existsSync(ACP_SDK_BUNDLE)) {
    throw new M3Error(
      'acp_sdk_missing',
      'the acp harness needs the bundled ACP SDK (packages/core/vendor/acp-sdk.cjs): run `npm run build` (it runs packages/core/scripts/bundle-acp-sdk.js)',
      {},
    );
  }
  loaded = require(ACP_SDK_BUNDLE) as AcpSdk;
  return loaded;
}
