import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { HOP_BY_HOP_HEADERS } from '../cassetteHeaders';

/**
 * Sends one request to `origin` with its own path and every header but the hop-by-hop ones (so the
 * client's key reaches the provider), asking for an uncompressed body so it can be recorded.
 * Redirects are not followed: a 3xx comes back as it is.
 */
export function forwardUpstream(
  origin: URL,
  method: string,
  path: string,
  headers: Readonly<Record<string, string>>,
  body: Buffer,
  signal?: AbortSignal,
): Promise<IncomingMessage> {
  const outgoing: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HOP_BY_HOP_HEADERS.has(name) && name !== 'content-length' && name !== 'accept-encoding')
      outgoing[name] = value;
  }
  outgoing['accept-encoding'] = 'identity';
  if (body.length > 0 || !['GET', 'HEAD'].includes(method)) outgoing['content-length'] = String(body.length);
  const send = origin.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      {
        protocol: origin.protocol,
        hostname: origin.hostname.replace(/^\[|\]$/g, ''),
        port: origin.port || undefined,
        method,
        path,
        headers: outgoing,
        signal,
      },
      resolve,
    );
    req.once('error', reject);
    req.end(body);
  });
}
