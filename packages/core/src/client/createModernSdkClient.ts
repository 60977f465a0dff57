import type { Client as V2Client, DiscoverResult } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JsonObject } from '../json';
import type { M3Logger } from '../logging/logger';
import { declaredCapabilities } from './clientCapabilities';
import { CLIENT_INFO } from './createSdkClient';
import type { DirectClientOptions } from './DirectClientOptions';
import { ModernSdkSession } from './ModernSdkSession';
import { AbsentResultTypeBridge } from './AbsentResultTypeBridge';
import { RequestTap } from './RequestTap';
import { loadSdkV2Client } from './sdkV2';

/** Rounds of `input_required` one call may take before it fails (contract §23 `maxInputRounds`). */
export const DEFAULT_MAX_INPUT_ROUNDS = 10;

/** Hides a user callback's error text from the server (it may hold secrets or payloads). */
async function guarded<T>(name: string, logger: M3Logger, call: () => T | Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    logger.warn(`${name} callback threw; answering the server with a generic error`, {
      errorType: error instanceof Error ? error.constructor.name : typeof error,
    });
    // The cause is dropped on purpose: its message may hold secrets or payloads.
    // eslint-disable-next-line preserve-caught-error
    throw new Error('MCP callback failed');
  }
}

/**
 * The official SDK v2 `Client` for a 2026-07-28 connection over `observed` (through an
 * `AbsentResultTypeBridge` and a `RequestTap`), with the capabilities and input handlers of the given callbacks: the same
 * handlers answer the `input_required` rounds of `tools/call`, `prompts/get` and `resources/read`
 * (the SDK fulfils them and retries with a byte-exact `requestState`). Not connected yet: connect
 * it with `connectModern`.
 */
export function createModernSdkClient(
  observed: Transport,
  options: DirectClientOptions,
  logger: M3Logger,
): { client: V2Client; session: ModernSdkSession; tap: RequestTap } {
  const { Client } = loadSdkV2Client();
  const tap = new RequestTap(new AbsentResultTypeBridge(observed));
  const client = new Client(CLIENT_INFO, {
    // The v1 and v2 capability types describe the same JSON object.
    capabilities: declaredCapabilities(options) as never,
    inputRequired: { autoFulfill: true, maxRounds: options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS },
  });
  client.onerror = (error) => logger.debug('MCP client error', { errorType: error.constructor.name });
  const { onElicitation, onSampling, onRoots } = options;
  if (onElicitation !== undefined) {
    client.setRequestHandler(
      'elicitation/create',
      (request, ctx) =>
        guarded('onElicitation', logger, () =>
          onElicitation(request.params as never, { signal: ctx.mcpReq.signal }),
        ) as never,
    );
  }
  if (onSampling !== undefined) {
    client.setRequestHandler(
      'sampling/createMessage',
      (request, ctx) =>
        guarded('onSampling', logger, () =>
          onSampling(request.params as never, { signal: ctx.mcpReq.signal }),
        ) as never,
    );
  }
  if (onRoots !== undefined) {
    client.setRequestHandler('roots/list', async (_request, ctx) => ({
      roots: await guarded('onRoots', logger, () => onRoots({ signal: ctx.mcpReq.signal })),
    }));
  }
  return { client, session: new ModernSdkSession(client), tap };
}

/**
 * Connects a v2 client in the modern era from the probe's `server/discover` answer (the SDK's
 * `connect({ prior })`: no second round trip).
 */
export async function connectModern(
  client: V2Client,
  tap: RequestTap,
  discover: JsonObject,
  request: { timeout: number; signal: AbortSignal },
): Promise<void> {
  await client.connect(tap as never, {
    ...request,
    prior: { kind: 'modern', discover: discover as unknown as DiscoverResult },
  });
}
