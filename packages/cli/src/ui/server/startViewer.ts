// Starts the viewer's HTTP server on 127.0.0.1: a fresh random token per start, the request gate,
// then the router. Resolves once listening, with the URL to open (token in its query).
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ViewerApi } from '../api/ViewerApi';
import { buildViewerRouter, sendError } from './apiRoutes';
import { checkRequest } from './viewerSecurity';
import { viewerAssets } from './viewerAssets';

/** A running viewer. */
export interface RunningViewer {
  /** `http://127.0.0.1:<port>/?token=…`, plus `#/runs/<id>` when a run was named. */
  url: string;
  port: number;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** Options of `startViewer`. */
export interface StartViewerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** The run the URL opens on. */
  runId?: string;
  /** Hears failures answered 500 (the CLI prints them to stderr). */
  onError?: (error: unknown) => void;
  /** A fixed token, for tests only; a start normally draws 32 random bytes. */
  token?: string;
}

/** Headers on every answer: no caching, no sniffing, no framing, scripts and styles only from the viewer. */
const SECURITY_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

/** Starts the viewer; rejects when the port is taken or invalid. */
export async function startViewer(api: ViewerApi, options: StartViewerOptions = {}): Promise<RunningViewer> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const onError = options.onError ?? (() => undefined);
  const router = buildViewerRouter(api, viewerAssets(), onError);
  let port = 0;
  const server: Server = createServer((request, response) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
    const decision = checkRequest(request, port, token);
    if ('refuse' in decision) {
      if (decision.refuse.status === 405) response.setHeader('Allow', 'GET, HEAD');
      return sendError(response, decision.refuse.status, decision.refuse.message);
    }
    if (decision.setCookie !== null) {
      // The token leaves the address bar: the cookie carries it from here on.
      response.setHeader('Set-Cookie', decision.setCookie);
      response.writeHead(303, { Location: '/' });
      return response.end();
    }
    router.lookup(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const fragment = options.runId === undefined ? '' : `#/runs/${encodeURIComponent(options.runId)}`;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}${fragment}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
