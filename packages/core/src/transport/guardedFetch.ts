import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { TransportConnectionError, TransportError } from '../errors';

/** What the fetch wrapper remembers across requests of one connection. */
export interface GuardedFetchState {
  /** True once any response arrived: later network failures are operation failures. */
  reached: boolean;
}

/** The network error code under a `fetch failed` TypeError (ECONNREFUSED, ENOTFOUND, ...). */
function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A `fetch` for the SDK's Streamable HTTP transport that never follows redirects: every request
 * uses `redirect: 'manual'` and a 3xx answer fails with `TransportError`. Network failures before
 * the endpoint ever answered are `TransportConnectionError`s. Messages hold only the safe URL
 * (no query, no credentials).
 */
export function guardedFetch(safeUrl: string, state: GuardedFetchState, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    let response: Response;
    try {
      response = await base(url, { ...init, redirect: 'manual' });
    } catch (error) {
      if (init?.signal?.aborted === true) throw error;
      const code = networkCode(error);
      const because = code !== undefined ? ` (${code})` : '';
      if (!state.reached) {
        throw new TransportConnectionError(
          `HTTP MCP endpoint ${safeUrl} is unreachable${because}: check that the server is running and the url is right`,
          { url: safeUrl, phase: 'connect', ...(code !== undefined && { errno: code }) },
          { cause: error },
        );
      }
      throw new TransportError(`HTTP MCP endpoint ${safeUrl} stopped answering${because}`, {
        url: safeUrl,
        phase: 'operation',
        ...(code !== undefined && { errno: code }),
      });
    }
    state.reached = true;
    if ((response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect') {
      await response.body?.cancel().catch(() => undefined);
      throw new TransportError(
        `HTTP MCP endpoint ${safeUrl} answered with a redirect (${response.status}); redirects are not followed: ` +
          'point the HTTPServer url at the final endpoint',
        { url: safeUrl, status: response.status, httpStatus: response.status },
      );
    }
    return response;
  };
}
