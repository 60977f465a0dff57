import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { TransportStartupError } from '../errors';
import { redactedCause } from '../redaction/redactedCause';
import type { InProcessServer, SdkServer } from '../servers/InProcessServer';
import type { OpenedTransport, OpenTransportOptions } from './openTransport';

/** Bound on closing an in-process server (upstream: 3 s). */
const CLOSE_TIMEOUT_MS = 3000;

function isSdkServer(value: unknown): value is SdkServer {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { connect?: unknown }).connect === 'function' &&
    typeof (value as { close?: unknown }).close === 'function'
  );
}

/**
 * Builds a fresh server with the factory and links it to the client in memory
 * (`InMemoryTransport.createLinkedPair()`).
 */
export async function openInProcessTransport(
  server: InProcessServer,
  options: OpenTransportOptions,
): Promise<OpenedTransport> {
  let sdkServer: unknown;
  try {
    sdkServer = await server.factory({ era: 'legacy' });
  } catch (error) {
    const name = error instanceof Error ? error.constructor.name : typeof error;
    const message = error instanceof Error ? options.redactor.redactText(error.message).slice(0, 500) : '';
    throw new TransportStartupError(
      `in-process server ${server.name} could not start: its factory threw ${name}${message !== '' ? `: ${message}` : ''}`,
      { server: server.name },
      { cause: redactedCause(error, options.redactor) },
    );
  }
  if (!isSdkServer(sdkServer)) {
    throw new TransportStartupError(
      `in-process server ${server.name} could not start: the factory must return an McpServer or Server from @modelcontextprotocol/sdk`,
      { server: server.name },
    );
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  try {
    await sdkServer.connect(serverSide);
  } catch (error) {
    throw new TransportStartupError(
      `in-process server ${server.name} could not start: connecting it failed (is the factory returning a server ` +
        'that is already connected? return a new one on every call)',
      { server: server.name },
      { cause: redactedCause(error, options.redactor) },
    );
  }
  let reaping: Promise<void> | undefined;
  const connected = sdkServer;
  return {
    transport: clientSide,
    kind: 'in_process',
    reap: () => {
      reaping ??= (async () => {
        await clientSide.close().catch(() => undefined);
        await Promise.race([
          connected.close().catch(() => undefined),
          new Promise((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS).unref()),
        ]);
      })();
      return reaping;
    },
  };
}
