import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { TransportKind } from '../enums';
import { ModelValidationError } from '../errors';
import type { Redactor } from '../redaction/Redactor';
import type { ServerDefinition } from '../servers/ServerDefinition';
import type { TraceRecorder } from '../trace/TraceRecorder';
import type { TransportPayload } from '../trace/payloads';
import type * as HttpOpener from './openHttpTransport';
import type * as InProcessOpener from './openInProcessTransport';
import type * as StdioOpener from './openStdioTransport';
import type { ConnectionEnd } from './StdioConnectionEnd';
import { tagTransportKind } from './transportKinds';

/** The child process behind a stdio transport. */
export interface OpenedProcess {
  pid: number;
  /** The kept stderr tail (64 KiB), redacted. */
  stderr(): string;
  /** Resolves when the child has exited and `process.exited` is recorded. */
  exited: Promise<{ code: number | null; signal: string | null }>;
}

/** A transport ready for an SDK `Client`, and how to clean up after it. */
export interface OpenedTransport {
  /** The SDK transport (not observed yet: wrap it in `ObservedTransport` to record its messages). */
  transport: Transport;
  kind: TransportKind;
  process?: OpenedProcess;
  /**
   * Why the connection ended before `operation` was answered (the child's exit code or signal and
   * last stderr lines, or an SDK limit); waits briefly for the exit status. Stdio only.
   */
  connectionEnd?(operation: string): Promise<ConnectionEnd | undefined>;
  /**
   * The transport for a 2026-07-28 connection to the same endpoint, when the legacy one cannot
   * carry it (HTTP: the SDK v2 transport, which sends the per-request `Mcp-Method`/`Mcp-Name`
   * headers). Made once; `reap` closes it too. Stdio and in-process transports carry both eras.
   */
  openModern?(): Transport;
  /**
   * Ends everything the connection owns: the child and its descendants (SIGTERM, then SIGKILL
   * after 2 s, verified), the HTTP connection, or the in-process server. Idempotent.
   */
  reap(): Promise<void>;
}

/** What `openTransport` needs from the client. */
export interface OpenTransportOptions {
  /** The kit's redactor: resolved secrets and credentials are added to it as canaries. */
  redactor: Redactor;
  /** Sent as `Authorization: Bearer ...` (HTTP only). */
  bearerToken?: string;
  recorder: TraceRecorder;
  connectionId: string;
}

/**
 * Opens the transport for one connection: resolves secrets (registering them as canaries),
 * applies the HTTP trust rules, spawns a stdio child (recording `process.started`) or links an
 * in-process server, and records `transport.connected`.
 * @throws TransportStartupError, TransportConnectionError, EndpointTrustError, ModelValidationError
 */
export async function openTransport(server: ServerDefinition, options: OpenTransportOptions): Promise<OpenedTransport> {
  if (options.bearerToken !== undefined && server.kind !== 'http') {
    throw new ModelValidationError(
      `bearerToken applies to HTTP servers only; ${server.name} is a ${server.kind} server`,
    );
  }
  // Each opener (and the SDK transport, auth and zod code behind it) is required when a server of
  // its kind first connects, not when sf-m3 is imported.
  let opened: OpenedTransport;
  switch (server.kind) {
    case 'stdio':
      opened = await (require('./openStdioTransport') as typeof StdioOpener).openStdioTransport(server, options);
      break;
    case 'http':
      opened = await (require('./openHttpTransport') as typeof HttpOpener).openHttpTransport(server, options);
      break;
    case 'in_process':
      opened = await (require('./openInProcessTransport') as typeof InProcessOpener).openInProcessTransport(
        server,
        options,
      );
      break;
    default:
      throw new ModelValidationError('openTransport needs a StdioServer, HTTPServer or InProcessServer');
  }
  tagTransportKind(opened.transport, opened.kind);
  if (!options.recorder.finished) {
    const payload: TransportPayload = { transport: opened.kind, instrumented: 'sdk-transport-wrapper' };
    options.recorder.record('transport.connected', {
      phase: 'startup',
      origin: 'normalized',
      direction: 'internal',
      server: server.name,
      connectionId: options.connectionId,
      payload,
    });
  }
  return opened;
}
