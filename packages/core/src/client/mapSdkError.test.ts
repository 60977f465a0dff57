import { ProtocolError as V2ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  ModelValidationError,
  OperationCancelled,
  OperationTimeout,
  ProtocolError,
  TransportError,
  UnsupportedFeature,
} from '../errors';
import { Redactor } from '../redaction/Redactor';
import { isConnectionLoss, mapSdkError } from './mapSdkError';

const redactor = new Redactor(['sekret-canary-value']);
const context = { operation: 'tools/call', timeoutMs: 250, redactor, cancelled: false };

describe('mapSdkError', () => {
  test('a JSON-RPC error becomes ProtocolError with the code and a redacted, bounded server message', () => {
    const error = mapSdkError(new McpError(-32602, `bad sekret-canary-value ${'x'.repeat(1000)}`), context);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.details).toMatchObject({ protocolCode: -32602, operation: 'tools/call', errorKind: 'mcp_protocol' });
    expect(error.message).toContain('JSON-RPC error -32602');
    expect(error.message).not.toContain('sekret-canary-value');
    expect(error.message.length).toBeLessThan(500);
  });

  test('the SDK request timeout becomes OperationTimeout naming the timeout', () => {
    const error = mapSdkError(new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: 250 }), context);
    expect(error).toBeInstanceOf(OperationTimeout);
    expect(error.details).toEqual({ operation: 'tools/call', timeoutMs: 250 });
  });

  test('a closed connection becomes TransportError', () => {
    expect(mapSdkError(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'), context)).toBeInstanceOf(
      TransportError,
    );
    expect(mapSdkError(new Error('Not connected'), context)).toBeInstanceOf(TransportError);
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(mapSdkError(refused, context)).toBeInstanceOf(TransportError);
  });

  test('anything thrown while the client closes is OperationCancelled', () => {
    const error = mapSdkError(new McpError(ErrorCode.RequestTimeout, 'aborted'), { ...context, cancelled: true });
    expect(error).toBeInstanceOf(OperationCancelled);
    expect(error.details).toMatchObject({ cause: 'client_close' });
  });

  test('a result that fails the SDK schema is a malformed-response ProtocolError without values', () => {
    const parsed = z.object({ tools: z.array(z.string()) }).safeParse({ tools: 'sekret-canary-value' });
    const error = mapSdkError(parsed.error, context);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.details).toMatchObject({ errorKind: 'malformed_response', paths: ['tools'] });
    expect(JSON.stringify(error.details)).not.toContain('sekret');
  });

  test('our own errors pass through; unknown ones become a client-exception ProtocolError', () => {
    const own = new ModelValidationError('nope');
    expect(mapSdkError(own, context)).toBe(own);
    const odd = mapSdkError(new RangeError('weird sekret-canary-value'), context);
    expect(odd).toBeInstanceOf(ProtocolError);
    expect(odd.details).toMatchObject({ errorKind: 'client_exception', exceptionType: 'RangeError' });
    expect(odd.message).not.toContain('sekret-canary-value');
  });

  describe('errors of the SDK v2 client (2026-07-28 connections)', () => {
    test('a JSON-RPC error is a ProtocolError with its code', () => {
      const error = mapSdkError(new V2ProtocolError(-32602, 'bad sekret-canary-value'), context);
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error.details).toMatchObject({ protocolCode: -32602, errorKind: 'mcp_protocol' });
      expect(error.message).not.toContain('sekret-canary-value');
    });

    test('timeouts, closed connections, removed methods and too many rounds map to their classes', () => {
      expect(mapSdkError(new SdkError(SdkErrorCode.RequestTimeout, 'timed out'), context)).toBeInstanceOf(
        OperationTimeout,
      );
      const closed = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
      expect(isConnectionLoss(closed)).toBe(true);
      expect(mapSdkError(closed, context)).toBeInstanceOf(TransportError);
      const gone = mapSdkError(new SdkError(SdkErrorCode.MethodNotSupportedByProtocolVersion, 'no ping'), {
        ...context,
        operation: 'ping',
      });
      expect(gone).toBeInstanceOf(UnsupportedFeature);
      expect(gone.message).toMatch(/ping does not exist in the 2026-07-28 protocol revision.*protocol: 'legacy'/);
      const rounds = mapSdkError(new SdkError(SdkErrorCode.InputRequiredRoundsExceeded, 'too many'), context);
      expect(rounds).toBeInstanceOf(ProtocolError);
      expect(rounds.code).toBe('input_rounds_exceeded');
    });

    test('an input round without a handler names the callback to add', () => {
      const error = mapSdkError(
        new Error(
          "Cannot request input 'pick' (sampling/createMessage): the request's client capabilities do not declare it",
        ),
        context,
      );
      expect(error).toMatchObject({ code: 'input_handler_missing', details: { handler: 'onSampling' } });
      expect(error.message).toContain('pass kit.direct(server, { onSampling })');
    });
  });
});
