import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { sdkTypes } from './sdkTypes';
import type { M3Logger } from '../logging/logger';
import type { DirectClientOptions } from './DirectClientOptions';

/**
 * A user callback that throws must not leak its message (it may hold secrets or payloads) to the
 * server or the trace: the server gets a generic JSON-RPC error and the log gets the error type.
 */
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

/** Installs the server-to-client request and notification handlers for the given callbacks. */
export function installServerRequestHandlers(client: Client, options: DirectClientOptions, logger: M3Logger): void {
  const { onElicitation, onSampling, onRoots, onLogMessage } = options;
  if (onElicitation !== undefined) {
    client.setRequestHandler(sdkTypes().ElicitRequestSchema, (request, extra) =>
      guarded('onElicitation', logger, () => onElicitation(request.params, { signal: extra.signal })),
    );
  }
  if (onSampling !== undefined) {
    client.setRequestHandler(sdkTypes().CreateMessageRequestSchema, (request, extra) =>
      guarded('onSampling', logger, () => onSampling(request.params, { signal: extra.signal })),
    );
  }
  if (onRoots !== undefined) {
    client.setRequestHandler(sdkTypes().ListRootsRequestSchema, async (_request, extra) => ({
      roots: await guarded('onRoots', logger, () => onRoots({ signal: extra.signal })),
    }));
  }
  if (onLogMessage !== undefined) {
    client.setNotificationHandler(sdkTypes().LoggingMessageNotificationSchema, (notification) => {
      try {
        onLogMessage(notification.params);
      } catch (error) {
        logger.warn('onLogMessage callback threw; the message was dropped', {
          errorType: error instanceof Error ? error.constructor.name : typeof error,
        });
      }
    });
  }
}
