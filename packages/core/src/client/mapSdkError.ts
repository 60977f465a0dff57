import { sdkTypes } from './sdkTypes';
import {
  M3Error,
  OperationCancelled,
  OperationTimeout,
  ProtocolError,
  TransportError,
  UnsupportedFeature,
} from '../errors';
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

/** A JSON-RPC error as the SDK v2 throws it (`ProtocolError`: numeric `code`, optional `data`). */
function isV2ProtocolError(error: unknown): error is Error & { code: number; data?: unknown } {
  const { McpError } = sdkTypes();
  return (
    error instanceof Error &&
    !(error instanceof McpError) &&
    !(error instanceof M3Error) &&
    /ProtocolError$/.test(error.constructor?.name ?? '') &&
    typeof (error as { code?: unknown }).code === 'number'
  );
}

/** An SDK v2 `SdkError`: a local failure with a string `code` such as `REQUEST_TIMEOUT`. */
function v2SdkErrorCode(error: unknown): string | undefined {
  if (!(error instanceof Error) || !/^Sdk(Http)?Error$/.test(error.constructor?.name ?? '')) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * True for an error that means the connection is gone (closed before the answer, or a send on a
 * dead transport): then the transport's evidence of how it ended is worth waiting for.
 */
export function isConnectionLoss(error: unknown): boolean {
  const { ErrorCode, McpError } = sdkTypes();
  if (error instanceof McpError) return error.code === ErrorCode.ConnectionClosed;
  const sdkCode = v2SdkErrorCode(error);
  if (sdkCode !== undefined) return sdkCode === 'CONNECTION_CLOSED' || sdkCode === 'SEND_FAILED';
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
  const sdkCode = v2SdkErrorCode(error);
  if (sdkCode !== undefined) {
    const v2 = mapV2SdkError(error as Error, sdkCode, context);
    if (v2 !== undefined) return v2;
  }
  if (error instanceof McpError || isV2ProtocolError(error)) {
    if (error.code === ErrorCode.RequestTimeout && error instanceof McpError) {
      return new OperationTimeout(
        `${operation} timed out after ${context.timeoutMs} ms: the server did not answer; raise timeoutMs (kit.direct option or per call) if it is just slow`,
        { operation, timeoutMs: context.timeoutMs },
      );
    }
    if (error.code === ErrorCode.ConnectionClosed && error instanceof McpError) {
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
  const missing = missingInputHandler(message);
  if (missing !== undefined) {
    return new ProtocolError(
      `${operation} needs input the test gave no handler for: the server asked for '${bounded(missing.inputKey, redactor)}' ` +
        `(${missing.method}) in an input_required round; pass kit.direct(server, { ${missing.handler} })`,
      { operation, errorKind: 'input_handler_missing', handler: missing.handler, inputMethod: missing.method },
      { cause: redactedCause(error, redactor), code: 'input_handler_missing' },
    );
  }
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

/** The SDK v2's local failures (2026-07-28 connections) as the contract §4 classes; undefined for the rest. */
function mapV2SdkError(error: Error, code: string, context: ErrorMappingContext): M3Error | undefined {
  const { operation, redactor, connectionEnd } = context;
  const cause = { cause: redactedCause(error, redactor) };
  switch (code) {
    case 'REQUEST_TIMEOUT':
      return new OperationTimeout(
        `${operation} timed out after ${context.timeoutMs} ms: the server did not answer; raise timeoutMs (kit.direct option or per call) if it is just slow`,
        { operation, timeoutMs: context.timeoutMs },
      );
    case 'CONNECTION_CLOSED':
    case 'SEND_FAILED':
    case 'NOT_CONNECTED': {
      const reason = connectionEnd?.reason ?? 'the connection closed before the server answered (did the server exit?)';
      return new TransportError(
        `MCP transport operation failed: ${operation}: ${reason}`,
        { operation, sdkCode: code, ...connectionEnd?.details },
        cause,
      );
    }
    case 'METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION':
      return new UnsupportedFeature(
        `${operation} does not exist in the 2026-07-28 protocol revision this connection speaks: ${bounded(error.message, redactor)}. ` +
          "Connect with protocol: 'legacy' to test it over the 2025 handshake",
        { operation, era: 'modern' },
      );
    case 'INPUT_REQUIRED_ROUNDS_EXCEEDED':
      return new ProtocolError(
        `${operation} asked for input more rounds than allowed: ${bounded(error.message, redactor)}`,
        { operation, errorKind: 'input_rounds_exceeded' },
        { ...cause, code: 'input_rounds_exceeded' },
      );
    default:
      return undefined;
  }
}

/** The callbacks that answer each kind of input a server asks for. */
const INPUT_HANDLERS: Record<string, string> = {
  'elicitation/create': 'onElicitation',
  'sampling/createMessage': 'onSampling',
  'roots/list': 'onRoots',
};

/**
 * The SDK v2 refuses to fulfil an `input_required` round whose kind the client did not declare
 * (`Cannot request input 'key' (method): ...`): which input, and the kit callback that declares it.
 */
function missingInputHandler(message: string): { inputKey: string; method: string; handler: string } | undefined {
  const match = /Cannot request input '([^']*)' \(([a-zA-Z/]+)\)/.exec(message);
  const handler = match !== null ? INPUT_HANDLERS[match[2]!] : undefined;
  return match !== null && handler !== undefined ? { inputKey: match[1]!, method: match[2]!, handler } : undefined;
}
