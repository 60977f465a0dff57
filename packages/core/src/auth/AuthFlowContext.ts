import type { TrustLevel } from '../enums';
import type { AuthenticationError, AuthenticationStep, EndpointTrustError } from '../errors';
import type { JsonObject } from '../json';
import type { Redactor } from '../redaction/Redactor';

/** The `auth.*` trace event kinds. */
export type AuthEventKind = 'auth.challenge' | 'auth.request' | 'auth.completed' | 'auth.failed';

/**
 * What every part of one connection's authorization flow shares: the MCP endpoint, the trust
 * level, the redactor (every token, secret, code and verifier becomes a canary the moment the kit
 * sees it) and the trace. `refusal` remembers a document or response the kit refused, because the
 * SDK's discovery swallows errors and falls back: a refused step must fail the flow, not be skipped.
 */
export interface AuthFlowContext {
  readonly serverName: string;
  /** The MCP endpoint (the protected resource). */
  readonly serverUrl: URL;
  readonly trust: TrustLevel;
  readonly redactor: Redactor;
  /** Records one `auth.*` event (payloads hold hosts, steps, outcomes and statuses only). */
  record(kind: AuthEventKind, payload: JsonObject): void;
  /** The first refusal of the current flow, thrown when the flow ends. */
  refusal: AuthenticationError | EndpointTrustError | undefined;
  /** The step and HTTP status of the last authorization request, to name where a flow failed. */
  last: { step: AuthenticationStep; httpStatus: number | null } | undefined;
}

/** Most bytes the kit reads from any authorization endpoint's response. */
export const MAX_AUTH_RESPONSE_BYTES = 64 * 1024;
