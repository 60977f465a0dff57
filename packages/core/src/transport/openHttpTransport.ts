import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { loadSdkV2Client } from '../client/sdkV2';
import { prepareHttpAuth } from '../auth/prepareHttpAuth';
import { ModelValidationError } from '../errors';
import { checkEndpointTrust, safeUrl } from '../servers/endpointTrust';
import type { HTTPServer } from '../servers/HTTPServer';
import { addCredentialCanary, resolveConfiguredValues } from '../servers/resolveConfiguredValues';
import { guardedFetch } from './guardedFetch';
import type { OpenedTransport, OpenTransportOptions } from './openTransport';

/**
 * Opens a Streamable HTTP connection through the SDK transport: trust rules first, then headers
 * (secrets resolved, credentials registered as canaries), with a fetch that refuses redirects,
 * then the server's `auth` (contract §17): its 401/403 handling and OAuth flow wrap that fetch.
 */
export async function openHttpTransport(server: HTTPServer, options: OpenTransportOptions): Promise<OpenedTransport> {
  const url = await checkEndpointTrust(server.url, server.trust);
  const headers = resolveConfiguredValues(server.headers, {
    redactor: options.redactor,
    what: 'headers',
    serverName: server.name,
  });
  const auth = prepareHttpAuth(server, url, {
    redactor: options.redactor,
    recorder: options.recorder,
    connectionId: options.connectionId,
    hasBearerOption: options.bearerToken !== undefined,
  });
  if (auth.authorization !== undefined) headers.Authorization = auth.authorization;
  if (options.bearerToken !== undefined) {
    if (typeof options.bearerToken !== 'string' || options.bearerToken.trim() === '') {
      throw new ModelValidationError('bearerToken must be a non-empty string');
    }
    if (/[\r\n]/.test(options.bearerToken)) {
      throw new ModelValidationError('bearerToken must be a single line');
    }
    if (Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) {
      throw new ModelValidationError(
        `server ${server.name} already sets an Authorization header: give either bearerToken or the header, not both`,
      );
    }
    addCredentialCanary(options.redactor, options.bearerToken);
    headers.Authorization = `Bearer ${options.bearerToken}`;
    options.redactor.addCanary(headers.Authorization);
  }
  const fetch = auth.wrap(guardedFetch(safeUrl(url), { reached: false }));
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers },
    fetch,
    // Our fetch sees every redirect and refuses it; the SDK must not follow any itself.
    redirectPolicy: 'follow',
  });
  let modern: Transport | undefined;
  let closed = false;
  return {
    transport,
    kind: 'http',
    openModern: () => {
      // The SDK v2 transport: it sends the 2026-07-28 headers (Mcp-Method, Mcp-Name) per request.
      const { StreamableHTTPClientTransport: ModernHttpTransport } = loadSdkV2Client();
      modern ??= new ModernHttpTransport(url, {
        requestInit: { headers },
        fetch: fetch as never,
        redirectPolicy: 'follow',
      }) as unknown as Transport;
      return modern;
    },
    reap: async () => {
      if (closed) return;
      closed = true;
      await transport.close().catch(() => undefined);
      await modern?.close().catch(() => undefined);
    },
  };
}
