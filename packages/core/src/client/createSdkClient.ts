import type { Client as V2Client } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { M3Logger } from '../logging/logger';
import type { DirectClientOptions } from './DirectClientOptions';
import { RequestTap } from './RequestTap';
import type { InitializationResult } from './results';
import { declaredCapabilities } from './clientCapabilities';
import { installServerRequestHandlers } from './serverRequestHandlers';

/** How sf-m3 introduces itself at `initialize`. */
export const CLIENT_INFO = { name: 'sf-m3', version: '0.1.0' };

/**
 * An SDK v1 `Client` for a legacy-era connection over `observed` (through a `RequestTap`, which
 * asks for `requestedRevision` at `initialize`), with the capabilities and server-to-client
 * handlers of the given callbacks. Not connected yet.
 */
export function createSdkClient(
  observed: Transport,
  options: DirectClientOptions,
  logger: M3Logger,
  requestedRevision: string | undefined = options.protocolVersion,
): { sdk: Client; tap: RequestTap } {
  const tap = new RequestTap(observed, {
    ...(requestedRevision !== undefined && { protocolVersion: requestedRevision }),
  });
  // The SDK client (and the ajv and zod it loads) is required on the first connection, not when
  // sf-m3 is imported.
  const { Client: SdkClient } = require('@modelcontextprotocol/sdk/client/index.js') as {
    Client: typeof Client;
  };
  const sdk = new SdkClient(CLIENT_INFO, { capabilities: declaredCapabilities(options) });
  sdk.onerror = (error) => logger.debug('MCP client error', { errorType: error.constructor.name });
  installServerRequestHandlers(sdk, options, logger);
  return { sdk, tap };
}

/** What the server said at `initialize`, read from a connected SDK v1 client (legacy era). */
export function readInitialization(sdk: Client, tap: RequestTap): InitializationResult {
  const info = sdk.getServerVersion();
  return Object.freeze({
    protocolVersion: tap.negotiatedProtocolVersion ?? 'unknown',
    era: 'legacy' as const,
    serverInfo: { ...(info ?? { name: 'unknown', version: 'unknown' }) },
    capabilities: { ...(sdk.getServerCapabilities() ?? {}) },
    instructions: sdk.getInstructions() ?? null,
  });
}

/** What the server said in its `server/discover` answer, read from a connected SDK v2 client. */
export function readModernInitialization(client: V2Client): InitializationResult {
  const info = client.getServerVersion();
  return Object.freeze({
    protocolVersion: client.getNegotiatedProtocolVersion() ?? 'unknown',
    era: 'modern' as const,
    serverInfo: { ...(info ?? { name: 'unknown', version: 'unknown' }) },
    capabilities: { ...((client.getServerCapabilities() ?? {}) as InitializationResult['capabilities']) },
    instructions: client.getInstructions() ?? null,
  });
}
