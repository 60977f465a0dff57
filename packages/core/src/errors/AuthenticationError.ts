import type { JsonObject } from '../json';
import { TransportError } from './M3Error';

/** Where in the HTTP authorization flow a request was rejected or refused. */
export const AuthenticationStep = Object.freeze({
  /** The MCP endpoint itself answered 401/403. */
  MCP_REQUEST: 'mcp_request',
  PROTECTED_RESOURCE_METADATA: 'protected_resource_metadata',
  AUTHORIZATION_SERVER_METADATA: 'authorization_server_metadata',
  CLIENT_REGISTRATION: 'client_registration',
  AUTHORIZATION: 'authorization',
  TOKEN: 'token',
  REFRESH: 'refresh',
} as const);
export type AuthenticationStep = (typeof AuthenticationStep)[keyof typeof AuthenticationStep];

/** The facts an `AuthenticationError` carries (all redacted: no token, secret, code or query). */
export interface AuthenticationErrorDetails extends JsonObject {
  /** The HTTP status of the rejecting response, or null when the kit refused before one arrived. */
  httpStatus: number | null;
  /** The `WWW-Authenticate` header of that response, redacted, or null. */
  wwwAuthenticate: string | null;
  step: AuthenticationStep;
  /** Why, as a stable name: `unauthorized`, `insufficient_scope`, `redirect_refused`, `resource_mismatch`... */
  reason: string;
}

/**
 * A request the server rejected (401/403) that the configured `auth` could not resolve, or an
 * authorization step the kit refused (a redirecting token endpoint, a malformed token response, a
 * metadata document pointing to another host). Assert it with
 * `await expect(connect).rejects.toThrow(AuthenticationError)` and check `details.httpStatus`.
 */
export class AuthenticationError extends TransportError {
  declare readonly details: AuthenticationErrorDetails;

  constructor(message: string, details: AuthenticationErrorDetails, options?: { cause?: unknown }) {
    super(message, details, { ...options, code: 'authentication_error' });
  }
}
