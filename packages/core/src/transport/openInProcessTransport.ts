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

/** True for a server object of the official SDK v2 (its protocol layer has a wire codec). */
export function isModernSdkServer(value: SdkServer): boolean {
  const protocol = (value as { server?: unknown }).server ?? value;
  return typeof (protocol as { _wireCodec?: unknown })._wireCodec === 'function';
}

/** The era router of the SDK v2 (`serveStdio` from `@modelcontextprotocol/server/stdio`). */
type ServeStdio = (
  factory: (context: { era: 'legacy' | 'modern' }) => unknown,
  options: { legacy: 'serve'; transport: unknown },
) => { close(): Promise<void> };

/**
 * Serves a v2 server in both eras over the in-memory pair, as the same server is over stdio: the
 * SDK's own era router (`serveStdio` with our transport) picks the era from the opening message and
 * builds the instance with the factory (the one already built is used when that era is `legacy`).
 */
function serveModernInProcess(
  server: InProcessServer,
  first: SdkServer,
  clientSide: InMemoryTransport,
  serverSide: InMemoryTransport,
  options: OpenTransportOptions,
): OpenedTransport {
  let serveStdio: ServeStdio;
  try {
    serveStdio = (require('@modelcontextprotocol/server/stdio') as { serveStdio: ServeStdio }).serveStdio;
  } catch (error) {
    throw new TransportStartupError(
      `in-process server ${server.name} is built with the SDK v2 but @modelcontextprotocol/server/stdio could not be loaded: install @modelcontextprotocol/server`,
      { server: server.name },
      { cause: redactedCause(error, options.redactor) },
    );
  }
  let unused: SdkServer | undefined = first;
  const handle = serveStdio(
    async ({ era }) => {
      const reuse = era === 'legacy' ? unused : undefined;
      unused = undefined;
      return reuse ?? (await server.factory({ era }));
    },
    { legacy: 'serve', transport: serverSide },
  );
  return inProcessOpened(clientSide, handle);
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
      `in-process server ${server.name} could not start: the factory must return an McpServer or Server from @modelcontextprotocol/sdk or @modelcontextprotocol/server`,
      { server: server.name },
    );
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  if (isModernSdkServer(sdkServer)) {
    return serveModernInProcess(server, sdkServer, clientSide, serverSide, options);
  }
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
  return inProcessOpened(clientSide, sdkServer);
}

/**
 * The opened in-process transport: its reap closes the client side, then the server (whatever
 * serves it: a v1 server or the v2 SDK's serving handle), waiting at most CLOSE_TIMEOUT_MS for it.
 */
function inProcessOpened(clientSide: InMemoryTransport, served: { close(): Promise<unknown> }): OpenedTransport {
  let reaping: Promise<void> | undefined;
  return {
    transport: clientSide,
    kind: 'in_process',
    reap: () => {
      reaping ??= (async () => {
        await clientSide.close().catch(() => undefined);
        await Promise.race([
          served.close().catch(() => undefined),
          new Promise((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS).unref()),
        ]);
      })();
      return reaping;
    },
  };
}
