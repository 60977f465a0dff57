import { sdkTypes } from './sdkTypes';
import { M3Error, OperationCancelled, OperationTimeout, ProtocolError, TransportError } from '../errors';
import type { JsonObject } from '../json';
import type { Redactor } from '../redaction/Redactor';
import { redactedCause } from '../redaction/redactedCause';
import type { ConnectionEnd } from '../transport/StdioConnectionEnd';

/** What the mapper needs to know about the failed operation. */
export interface ErrorMappingContext {
  /** MCP method or client operation, e.g. `tools/call`. */
  readonly operation: string;
  /** The timeout the operation ran with. */
  readonly timeoutMs: number;
  readonly redactor: Redactor;
  /** True when the client (or kit) closed while the operation was in flight. */
  readonly cancelled: boolean;
  /** How the connection ended, when the error is a connection loss and the transport knows. */
  readonly connectionEnd?: ConnectionEnd;
}

const SERVER_MESSAGE_CHARS = 300;
const TRANSPORT_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ERR_STREAM_DESTROYED',
]);

function bounded(text: string, redactor: Redactor): string {
  const redacted = redactor.redactText(text);
  return redacted.length > SERVER_MESSAGE_CHARS ? `${redacted.slice(0, SERVER_MESSAGE_CHARS)}…` : redacted;
}

function isZodError(error: unknown): error is { issues: Array<{ path?: unknown[]; code?: string }> } {
  return (
    typeof error === 'object' &&
    error !== null &&
    Array.isArray((error as { issues?: unknown }).issues) &&
    (error as { name?: unknown }).name !== undefined &&
    String((error as { name?: unknown }).name).includes('Zod')
  );
}

function looksLikeTransportFailure(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && TRANSPORT_ERRNO.has(code)) return true;
  const name = error.constructor?.name ?? error.name;
  if (/StreamableHTTPError|SseError/.test(name)) return true;
  return error.message === 'Not connected' || /fetch failed|socket hang up|stream (is )?closed/i.test(error.message);
}

/** The HTTP status a `StreamableHTTPError` carries in `code` (contract §17: HTTP failures say their status). */
function httpStatusOf(error: Error): number | undefined {
  const code = (error as { code?: unknown }).code;
  const name = error.constructor?.name ?? error.name;
  return /StreamableHTTPError|SseError/.test(name) && typeof code === 'number' && code >= 100 && code < 600
    ? code
    : undefined;
}

/**
 * True for an error that means the connection is gone (closed before the answer, or a send on a
 * dead transport): then the transport's evidence of how it ended is worth waiting for.
 */
export function isConnectionLoss(error: unknown): boolean {
  const { ErrorCode, McpError } = sdkTypes();
  if (error instanceof McpError) return error.code === ErrorCode.ConnectionClosed;
  return error instanceof Error && !(error instanceof M3Error) && looksLikeTransportFailure(error);
}

/**
 * Turns whatever the SDK threw into the contract §4 error classes. Messages say what happened and
 * what to do; server-supplied text is redacted and bounded, and no request payload is echoed.
 */
export function mapSdkError(error: unknown, context: ErrorMappingContext): M3Error {
  const { operation, redactor, connectionEnd } = context;
  if (context.cancelled) {
    return new OperationCancelled(
      `${operation} was cancelled: the client was closed while the operation was in flight`,
      { operation, cause: 'client_close' },
    );
  }
  if (error instanceof M3Error) return error;
  const { ErrorCode, McpError } = sdkTypes();
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) {
      return new OperationTimeout(
        `${operation} timed out after ${context.timeoutMs} ms: the server did not answer; raise timeoutMs (kit.direct option or per call) if it is just slow`,
        { operation, timeoutMs: context.timeoutMs },
      );
    }
    if (error.code === ErrorCode.ConnectionClosed) {
      const reason = connectionEnd?.reason ?? 'the connection closed before the server answered (did the server exit?)';
      return new TransportError(
        `MCP transport operation failed: ${operation}: ${reason}`,
        { operation, protocolCode: error.code, ...connectionEnd?.details },
        { cause: redactedCause(error, redactor) },
      );
    }
    const serverMessage = bounded(error.message.replace(/^MCP error -?\d+: /, ''), redactor);
    const details: JsonObject = { operation, protocolCode: error.code, errorKind: 'mcp_protocol', serverMessage };
    return new ProtocolError(
      `MCP protocol operation failed: ${operation} returned JSON-RPC error ${error.code}: ${serverMessage}`,
      details,
      { cause: redactedCause(error, redactor) },
    );
  }
  if (isZodError(error)) {
    const paths = error.issues.slice(0, 10).map((issue) => (issue.path ?? []).map(String).join('.'));
    return new ProtocolError(
      `MCP protocol operation failed: ${operation}: the server sent a malformed response that does not match the MCP result schema`,
      { operation, errorKind: 'malformed_response', paths },
    );
  }
  if (error instanceof Error && looksLikeTransportFailure(error)) {
    const httpStatus = httpStatusOf(error);
    return new TransportError(
      `MCP transport operation failed: ${operation}: ${connectionEnd?.reason ?? bounded(error.message, redactor)}`,
      {
        operation,
        exceptionType: error.constructor?.name ?? 'Error',
        ...(httpStatus !== undefined && { httpStatus }),
        ...connectionEnd?.details,
      },
      { cause: redactedCause(error, redactor) },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProtocolError(
    `MCP client operation failed: ${operation}: ${bounded(message, redactor)}`,
    {
      operation,
      errorKind: 'client_exception',
      exceptionType: error instanceof Error ? error.constructor.name : typeof error,
    },
    { cause: redactedCause(error, redactor) },
  );
}
